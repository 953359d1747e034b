#!/usr/bin/env bash
# Runs the whole suite (scripts/test.sh: layout check, regression, isolation,
# TAP) against each PostgreSQL major version, each built from Debian's source
# package (14 and 16: from a source tree put in $PG_CACHE/src, see
# doc/testing.md).  The servers are cached outside the repository, in
# $PG_CACHE/<major> (sources in $PG_CACHE/src; scripts/pg-build.sh): the first
# run builds them (a few minutes each), later runs reuse them.
# Usage: sudo scripts/matrix.sh [MAJOR...] (default: 13 15 17 18, the versions
# Debian's source archive has).
#
# Environment: PG_CACHE (default /var/cache/simhash-pg); JOBS, make -j for the
# server builds (default 2).  Prints one line per version and exits non-zero
# when any version fails to build or to pass.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg-build.sh"
require_root "$@"

VERSIONS=("$@")
[ ${#VERSIONS[@]} -gt 0 ] || VERSIONS=(13 15 17 18)

install_build_deps
add_sources "${VERSIONS[@]}"

declare -A result
status=0
for v in "${VERSIONS[@]}"; do
    if ! build_server "$v" "$v"; then
        result[$v]="server build failed"
        status=1
        continue
    fi
    say "PostgreSQL $v: scripts/test.sh"
    log=$(mktemp "${TMPDIR:-/tmp}/simhash-matrix-$v.XXXXXX")
    if PG_CONFIG="$PG_CACHE/$v/bin/pg_config" bash "$REPO_ROOT/scripts/test.sh" >"$log" 2>&1; then
        result[$v]="$(tail -n 1 "$log")"
        rm -f "$log"
    else
        result[$v]="$(grep -E '^[0-9]+ passed' "$log" | tail -n 1 || echo 'did not finish'), log in $log"
        status=1
    fi
done
say "matrix"
for v in "${VERSIONS[@]}"; do
    printf '  PostgreSQL %-3s %s\n' "$v" "${result[$v]}"
done
exit $status
