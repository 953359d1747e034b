#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, builds with warnings as
# errors, installs, and runs the regression tests (pg_regress, against a
# throwaway cluster) and the TAP tests (each starts its own clusters).
# Exits non-zero when any test fails.  Usage: sudo scripts/test.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
install_deps
make_workdir
as_user make -C "$WORK/src" -s check-generated || die "a generated install piece is stale"

WARNINGS="-Wall -Wextra -Werror -Wno-unused-parameter"  # PostgreSQL's own headers and fmgr signatures leave parameters unused
build_install COPT="$WARNINGS"
start_cluster

status=0
say "source layout (scripts/check-layout.pl)"
layout_passed=0
if perl "$REPO_ROOT/scripts/check-layout.pl" "$WORK/src/src"; then
    layout_passed=1
else
    status=1
fi

say "regression tests (pg_regress)"
if ! as_user make -C "$WORK/src" -s installcheck-regress 2>&1 | tee "$WORK/regress.out"; then
    status=1
    [ -f "$WORK/src/regression.diffs" ] && cat "$WORK/src/regression.diffs"
fi

say "isolation tests (pg_isolation_regress)"
if ! as_user make -C "$WORK/src" -s installcheck-isolation 2>&1 | tee "$WORK/isolation.out"; then
    status=1
    [ -f "$WORK/src/test/isolation/regression.diffs" ] && cat "$WORK/src/test/isolation/regression.diffs"
fi

say "TAP tests (prove)"
if ! as_user make -C "$WORK/src" -s installcheck-tap 2>&1 | tee "$WORK/tap.out"; then
    status=1
    for f in "$WORK"/src/tmp_check/log/regress_log_*; do
        [ -f "$f" ] && { echo "---- $f"; tail -n 60 "$f"; }
    done
fi

# The client packages against the same cluster, one test each; npm ci
# fetches node-postgres from the npm registry (pinned by package-lock.json).
say "client packages (clients/python, clients/node)"
clients_passed=0
if as_user bash -c "cd '$WORK/src/clients/python' &&
        /usr/bin/python3 -W ignore::DeprecationWarning -m unittest discover -s tests -t ." 2>&1; then
    clients_passed=$((clients_passed + 1))
else
    status=1
fi
if as_user bash -c "cd '$WORK/src/clients/node' &&
        npm ci --no-audit --no-fund --no-update-notifier --cache '$WORK/npm-cache' >/dev/null &&
        node --test tests/*.test.js > '$WORK/node.out'" 2>&1; then
    clients_passed=$((clients_passed + 1))
    grep -E '^# (tests|pass|fail)' "$WORK/node.out"
else
    status=1
    cat "$WORK/node.out" 2>/dev/null || true
fi

# One closing line over all runners: a test is the layout check, a
# regression test, an isolation spec, a TAP file or a client package; one that did not report "ok" (crashed,
# aborted, never ran) failed.
regress_total=$(make -s -C "$WORK/src" print-test-count)
# ("test name ... ok" before PostgreSQL 16, "ok N - name" from 16 on)
regress_passed=$(cat "$WORK/regress.out" "$WORK/isolation.out" \
    | grep -Ec '^(ok|test) .* ok( |$)|^ok [0-9]+ +- ' || true)
tap_total=$(ls "$WORK"/src/test/t/*.pl | wc -l)
tap_passed=$(grep -Ec '\.\. ok$' "$WORK/tap.out" || true)
passed=$((layout_passed + regress_passed + tap_passed + clients_passed))
failed=$((1 + regress_total + tap_total + 2 - passed))
[ $failed -eq 0 ] || status=1
echo
echo "$passed passed, $failed failed"
exit $status
