#!/usr/bin/env bash
# Builds the Debian packages postgresql-<major>-simhash, one for each
# PostgreSQL version of debian/pgversions that this machine's
# postgresql-server-dev-all supports (Debian 12: 15), with Debian's extension
# tooling (pg_buildext, debhelper), from a clean copy of the tree.  The .deb
# files land in OUTDIR (default dist/ in the repository).
#
# Usage: scripts/build-deb.sh [--install] [OUTDIR]
#   --install  then installs them with "apt-get install ./<file>.deb" (as
#              root: this writes into the system's PostgreSQL directories)
# As root it first installs the build dependencies that are missing; as
# another user they must be there (dpkg-buildpackage names what is missing).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

install=0
if [ "${1:-}" = --install ]; then install=1; shift; fi
OUT=$(realpath -m "${1:-$REPO_ROOT/dist}")

if [ "$(id -u)" -eq 0 ]; then
    install_packages $DEB_BUILD_PACKAGES libxxhash-dev libicu-dev pkg-config make gcc
elif [ $install = 1 ]; then
    die "--install needs root"
fi

# The package's upstream version must be the extension's (CONTRIBUTING.md).
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$REPO_ROOT/simhash.control")
deb_version=$(sed -n '1s/^simhash (\([^)]*\)).*/\1/p' "$REPO_ROOT/debian/changelog")
[ "${deb_version%-*}" = "$version" ] ||
    die "debian/changelog is at $deb_version but simhash.control at $version: add a changelog entry (dch -v $version-1)"

BUILD=$(mktemp -d "${TMPDIR:-/tmp}/simhash-deb.XXXXXX")
trap 'rm -rf "$BUILD"' EXIT
mkdir "$BUILD/simhash-$version"
copy_source "$BUILD/simhash-$version"

say "building the Debian packages of simhash $version (log: dpkg-buildpackage.log in $OUT)"
mkdir -p "$OUT"
# PG_UPDATECONTROL: list in debian/control the PostgreSQL versions this
# machine supports, whatever the committed file lists.
if ! (cd "$BUILD/simhash-$version" &&
      PG_UPDATECONTROL=yes DEB_BUILD_OPTIONS=nocheck MAKEFLAGS="-j$(nproc)" \
      dpkg-buildpackage -b -us -uc) >"$OUT/dpkg-buildpackage.log" 2>&1; then
    tail -n 40 "$OUT/dpkg-buildpackage.log" >&2
    die "dpkg-buildpackage failed"
fi
debs=()
for f in "$BUILD"/*.deb; do
    case $f in *-dbgsym_*) continue ;; esac   # debug symbols: not needed to run it
    mv "$f" "$OUT/"
    debs+=("$OUT/$(basename "$f")")
done
[ ${#debs[@]} -gt 0 ] || die "no package was built"
printf '    %s\n' "${debs[@]}"

if [ $install = 1 ]; then
    say "installing ${debs[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${debs[@]}" >/dev/null
    dpkg-query -W 'postgresql-*-simhash'
fi
