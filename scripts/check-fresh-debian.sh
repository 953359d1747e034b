#!/usr/bin/env bash
# Runs the README's two commands on a fresh Debian 12: a minimal bookworm
# installed by debootstrap into a temporary folder (nothing of this
# machine's packages in it), this checkout's files copied in, then
# scripts/demo.sh and scripts/test.sh as root in a chroot.  It shows that
# the commands install everything they need, which a run on a machine that
# already has the packages cannot show.  Not part of the test suite: it
# downloads about 300 MB of packages and takes 15-30 minutes.
#
# Usage: sudo scripts/check-fresh-debian.sh [demo] [test]   (default both)
# Environment: MIRROR (default http://deb.debian.org/debian); KEEP=1 keeps
# the folder (its path is printed).  Exits non-zero when a command fails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"

PARTS=("$@")
[ ${#PARTS[@]} -gt 0 ] || PARTS=(demo test)
for part in "${PARTS[@]}"; do
    case "$part" in
        demo|test) ;;
        *) die "unknown part $part (demo, test)" ;;
    esac
done
MIRROR=${MIRROR:-http://deb.debian.org/debian}

install_packages debootstrap
ROOT=$(mktemp -d /var/tmp/simhash-fresh.XXXXXX)
chmod 755 "$ROOT"	# its /: mktemp makes it 0700, which only root could enter

# Stops what still runs in the folder, unmounts what was mounted there (the
# recursive binds of this machine's /dev and /sys are slaves, so unmounting
# them leaves the machine's own alone), then removes it unless KEEP=1.
leave() {
    local m p
    # what the commands left running in it (none is expected)
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && kill -9 "${p#/proc/}" 2>/dev/null
    done
    for m in "$ROOT/dev" "$ROOT/sys" "$ROOT/proc"; do
        mountpoint -q "$m" && umount -R "$m"
    done
    if [ "${KEEP:-0}" = 1 ]; then
        echo "kept $ROOT"
    else
        rm -rf --one-file-system "$ROOT"
    fi
}
trap leave EXIT

say "installing a minimal Debian 12 (bookworm) into $ROOT"
debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$ROOT.log" 2>&1 \
    || { tail -n 20 "$ROOT.log"; die "debootstrap failed"; }
rm -f "$ROOT.log"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# The machine's own certificate authorities, for a network that intercepts
# TLS (as this one does): the ca-certificates package adds them to the
# system's list when the commands install it, and npm is told to use it.
# On a machine with a plain connection there are none.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    extra_ca=(NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
else
    extra_ca=()
fi
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys"
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"

say "copying this checkout's files"
mkdir -p "$ROOT/root/simhash"
(cd "$REPO_ROOT" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) \
    | tar -x -C "$ROOT/root/simhash"

status=0
declare -A result
for part in "${PARTS[@]}"; do
    cmd=scripts/$part.sh
    say "chroot: $cmd"
    # a new root shell's environment (LANG as Debian's cloud images set it),
    # not this script's: lib.sh exports PG_CONFIG, for one
    if env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
           LANG=C.UTF-8 TERM=dumb "${extra_ca[@]}" chroot "$ROOT" /bin/bash -c "cd /root/simhash && bash $cmd"; then
        result[$part]="$cmd: passed"
    else
        result[$part]="$cmd: FAILED"
        status=1
    fi
done
say "fresh Debian 12"
for part in "${PARTS[@]}"; do
    echo "  ${result[$part]}"
done
exit $status
