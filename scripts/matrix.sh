#!/usr/bin/env bash
# Runs the whole suite (scripts/test.sh: layout check, regression, isolation,
# TAP) against each PostgreSQL major version, each built from Debian's source
# package (14 and 16: from a source tree put in $PG_CACHE/src, see
# doc/testing.md).  The servers are cached outside the repository, in
# $PG_CACHE/<major> (sources in $PG_CACHE/src; scripts/pg-build.sh): the first
# run builds them (a few minutes each), later runs reuse them.
# Usage: sudo scripts/matrix.sh [--cached] [MAJOR...] (default: 13 15 17 18,
# the versions Debian's source archive has).
#
# Environment: PG_CACHE (default /var/cache/simhash-pg); JOBS, make -j for the
# server builds (default 2).  Prints one line per version and exits non-zero
# when any version fails to build or to pass.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg-build.sh"
require_root "$@"

# --cached: only the versions whose server is in the cache already; nothing
# is installed or built (CI uses this, see .ci/run).
CACHED_ONLY=0
if [ "${1:-}" = --cached ]; then
    CACHED_ONLY=1
    shift
fi
VERSIONS=("$@")
[ ${#VERSIONS[@]} -gt 0 ] || VERSIONS=(13 15 17 18)

if [ $CACHED_ONLY = 1 ]; then
    cached=()
    for v in "${VERSIONS[@]}"; do
        [ -f "$PG_CACHE/$v/.built" ] && cached+=("$v")
    done
    [ ${#cached[@]} -gt 0 ] || { echo "no cached server among ${VERSIONS[*]} in $PG_CACHE: nothing to run"; exit 0; }
    VERSIONS=("${cached[@]}")
else
    install_build_deps
    add_sources "${VERSIONS[@]}"
fi

declare -A result
status=0
for v in "${VERSIONS[@]}"; do
    if ! build_server "$v" "$v"; then
        result[$v]="PostgreSQL $v: server build failed"
        status=1
        continue
    fi
    say "PostgreSQL $v: scripts/test.sh"
    result[$v]=$(run_suite "$PG_CACHE/$v/bin/pg_config") || status=1
done
say "matrix"
for v in "${VERSIONS[@]}"; do
    echo "  ${result[$v]}"
done
exit $status
