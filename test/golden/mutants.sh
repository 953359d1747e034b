#!/usr/bin/env bash
# Checks that vectors_v5.csv catches the likely ways to get version 5's line
# weights wrong, vectors_v7.csv those of version 7's cap and vectors_v8.csv
# those of version 8's cap of the typical word: builds mutants
# of reference.c (each one deliberate bug) and counts the vectors each one
# changes; every count must be above zero.
# Usage: bash test/golden/mutants.sh   (from the repository; needs gcc, ICU,
# xxHash headers and python3)
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 test/golden/make_vectors_v5.py > "$tmp/in5.csv" 2>/dev/null
(cd test/golden && python3 make_vectors_v7.py) > "$tmp/in7.csv" 2>/dev/null
(cd test/golden && python3 make_vectors_v8.py) > "$tmp/in8.csv" 2>/dev/null
fail=0
version=5
mut() {
    local name=$1
    shift
    sed "$@" test/golden/reference.c > "$tmp/mut.c"
    if cmp -s "$tmp/mut.c" test/golden/reference.c; then
        echo "$name: the mutation did not apply"; fail=1; return
    fi
    gcc -O1 -o "$tmp/mut" "$tmp/mut.c" -licuuc -lm
    "$tmp/mut" $version < "$tmp/in$version.csv" > "$tmp/mut.csv"
    n=$(python3 -c "
import csv, sys
a = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))[1:]
b = list(csv.reader(open(sys.argv[2], newline='', encoding='utf-8')))[1:]
print(sum(x[5] != y[5] for x, y in zip(a, b)))" "$tmp/mut.csv" test/golden/vectors_v$version.csv)
    printf '%-22s %4d vectors differ\n' "$name" "$n"
    [ "$n" -gt 0 ] || fail=1
}
mut whole-text-T        -e 's/#define LINE_PREFIX 65536/#define LINE_PREFIX (1 << 30)/'
mut prefix-65535        -e 's/#define LINE_PREFIX 65536/#define LINE_PREFIX 65535/'
mut prefix-65537        -e 's/#define LINE_PREFIX 65536/#define LINE_PREFIX 65537/'
mut cap-4095            -e 's/#define LINE_CAP 4096/#define LINE_CAP 4095/'
mut cap-4097            -e 's/#define LINE_CAP 4096/#define LINE_CAP 4097/'
mut no-cap-in-T         -e '/if (part > LINE_CAP)/{N;d}'
mut crossing-line-whole -e 's/long		part = (long) ((i < LINE_PREFIX ? i : LINE_PREFIX) - start);/long part = (long) (i - start);/'
mut median-line         -e 's/total += prefix\[k\];/total += 1;/' -e 's/below += prefix\[k\];/below += 1;/'
mut median-strict       -e 's/if (2 \* below >= total)/if (2 * below > total)/'
mut no-T-multiplier-0   -e 's/		return 16;$/		return 0;/'
mut m16-rounded-up      -e 's/m = 16 \* rl->len\[line\] \/ rl->typical;/m = (16 * rl->len[line] + rl->typical - 1) \/ rl->typical;/'
mut weight-truncated    -e 's/m16 + 8) \/ 16;/m16 + 0) \/ 16;/'
mut weight-may-be-0     -e 's/feats\[nf\].weight_runs = w > 1 ? w : 1;/feats[nf].weight_runs = w;/'
mut code-points         -e 's|rl.len\[line\] = (long) (i - start) < LINE_CAP ? (long) (i - start) : LINE_CAP;|{ long cp = 0; for (size_t q = start; q < i; q++) cp += (t[q] \& 0xC0) != 0x80; rl.len[line] = cp < LINE_CAP ? cp : LINE_CAP; }|'
mut u2028-no-break      -e 's/(t\[i + 2\] == 0xA8 || t\[i + 2\] == 0xA9)/(t[i + 2] == 0xA9)/' -e 's/|| norm\[i\] == 0x2028 //'
mut u2029-no-break      -e 's/(t\[i + 2\] == 0xA8 || t\[i + 2\] == 0xA9)/(t[i + 2] == 0xA8)/' -e 's/|| norm\[i\] == 0x2029)/)/'
mut cr-no-break         -e "s/if (t\[i\] == '\\\\r' || t\[i\] == '\\\\n')/if (t[i] == '\\\\n')/" -e "s/if (norm\[i\] == '\\\\r' || /if (/"
version=7
mut v7-cap-floor        -e 's/c = num \/ den + (num % den != 0);/c = num \/ den;/'
mut v7-cap-1380         -e 's/num = 9LL \* 1400 \* t,/num = 9LL * 1380 * t,/'
mut v7-from-1500        -e 's/if (version >= 7 \&\& nf > 1400)/if (version >= 7 \&\& nf > 1500)/'
mut v7-sqrt             -e 's/if (version >= 7 \&\& nf > 1400)/if (version >= 7 \&\& nf > 1400 \&\& 0)/' -e 's/else if (nf <= 10000)/else if (nf <= (version >= 7 ? 1400 : 10000))/' -e 's/sqrt(10000.0 \/ (double) nf)/sqrt((version >= 7 ? 1400.0 : 10000.0) \/ (double) nf)/'
version=8
mut v8-16-is-15         -e 's/typical = 16 \* median > least ? 16 \* median : least;/typical = 15 * median > least ? 15 * median : least;/'
mut v8-no-floor         -e 's/typical = 16 \* median > least ? 16 \* median : least;/typical = 16 * median;/'
mut v8-median-strict    -e 's/if (2 \* seen >= all)/if (2 * seen > all)/'
mut v8-median-of-words  -e 's/seen += byweight\[k\]->count;/seen += 1;/' -e 's/all += byfirst\[k\]->count;/all += 1;/'
[ $fail = 0 ] && echo "every mutant changes some vector" || { echo "some mutant changes no vector"; exit 1; }
