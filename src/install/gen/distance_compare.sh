#!/bin/sh
# Prints src/install/55_distance_compare.sql: the comparisons of distances,
# six comparisons times seven signatures, each a function and an operator
# alike but for the columns of the two tables below.  The output is kept in
# the tree; after editing this script run "make generate" (which rewrites
# it) and commit both.  "make check-generated" (run by scripts/test.sh)
# fails when they differ.  POSIX sh and printf only.
set -eu

# name  operator  commutator  negator  restriction estimator  description;
# the join estimator is the restriction one's name with joinsel for sel.
comparisons() {
	cat <<'TABLE'
eq  =   =   <>  eqsel        distance equal
ne  <>  <>  =   neqsel       distance not equal
lt  <   >   >=  scalarltsel  distance less than
le  <=  >=  >   scalarlesel  distance less than or equal
gt  >   <   <=  scalargtsel  distance greater than
ge  >=  <=  <   scalargesel  distance greater than or equal
TABLE
}

# C and SQL name of the function (%s: the comparison's name)  left  right
signatures() {
	cat <<'TABLE'
simhash_distance_%s       simhash_distance  integer
simhash_distance_%s       integer           simhash_distance
simhash_distance_%s       simhash_distance  simhash_distance
simhash_distance_%s_int2  simhash_distance  smallint
int2_%s_simhash_distance  smallint          simhash_distance
simhash_distance_%s_int8  simhash_distance  bigint
int8_%s_simhash_distance  bigint            simhash_distance
TABLE
}

cat <<'HEADER'
-- Comparisons of distances: =, <>, <, <=, > and >= between a
-- simhash_distance (30_distance.sql) and an integer of any width on either
-- side, or another distance.  Written by src/install/gen/distance_compare.sh
-- ("make generate"): edit that script, not this file.
--
-- They are the extension's own, and each function carries the planner
-- support (50_planner.sql), which is what rewrites "fp <-> q <= k" into a
-- clause an index can answer.  Operators on a domain are chosen only when
-- every argument matches exactly, so each comparison exists for every
-- signature below; otherwise "fp <-> q <= $1" with an untyped parameter
-- would resolve to core's int4le, and with a smallint one to int42le.
-- simhash_distance_<op> serves the three int4 signatures (a
-- simhash_distance is an int4 underneath); smallint and bigint have their
-- own functions, because drivers send them (psycopg sends a small Python
-- int as smallint, JDBC's setLong a bigint) and the operator chosen for
-- them must be the extension's.  <op> is eq, ne, lt, le, gt or ge:
--
HEADER
signatures | while read -r pattern left right; do
	printf -- '--   %-26s (%s, %s)\n' "$(printf "$pattern" '<op>')" "$left" "$right"
done

comparisons | while read -r name op commutator negator restrict description; do
	signatures | while read -r pattern left right; do
		fn=$(printf "$pattern" "$name")
		printf '\n'
		printf 'CREATE FUNCTION %s(%s, %s) RETURNS boolean\n' "$fn" "$left" "$right"
		printf '\tAS '\''MODULE_PATHNAME'\'' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF\n'
		printf '\tSUPPORT simhash_distance_support;\n'
		printf 'COMMENT ON FUNCTION %s(%s, %s) IS '\''%s'\'';\n' "$fn" "$left" "$right" "$description"
		printf 'CREATE OPERATOR %s (\n' "$op"
		printf '\tLEFTARG = %s, RIGHTARG = %s, FUNCTION = %s,\n' "$left" "$right" "$fn"
		printf '\tCOMMUTATOR = %s, NEGATOR = %s,\n' "$commutator" "$negator"
		printf '\tRESTRICT = %s, JOIN = %sjoinsel\n' "$restrict" "${restrict%sel}"
		printf ');\n'
		printf 'COMMENT ON OPERATOR %s (%s, %s) IS '\''%s'\'';\n' "$op" "$left" "$right" "$description"
	done
done
