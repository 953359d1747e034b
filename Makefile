# simhash -- PGXS build.
#
# The extension version lives in simhash.control (default_version) and only
# there: this Makefile derives the install script's name and the C constant
# SIMHASH_VERSION from it.

EXTENSION   = simhash
EXTVERSION  = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big  = simhash
OBJS        = src/simhash.o \
              src/type.o \
              src/compare.o \
              src/distance.o \
              src/ball.o \
              src/planner.o \
              src/fingerprint.o \
              src/fingerprint_accum.o \
              src/fingerprint_features.o \
              src/fingerprint_options.o \
              src/fingerprint_text.o \
              src/fingerprint_stream.o \
              src/toast_decode.o \
              src/index/handler.o \
              src/index/page.o \
              src/index/build.o \
              src/index/insert.o \
              src/index/pending.o \
              src/index/scan.o \
              src/index/vacuum.o \
              src/index/cost.o \
              src/index/validate.o \
              src/index/verify.o

# The install script is assembled from one file per concern, in this order.
SQL_PARTS   = src/sql/type.sql \
              src/sql/compare.sql \
              src/sql/distance.sql \
              src/sql/ball.sql \
              src/sql/planner.sql \
              src/sql/fingerprint.sql \
              src/sql/index.sql
DATA_built  = $(EXTENSION)--$(EXTVERSION).sql

# Regression tests (sql/ + expected/), run in this order by "make installcheck".
REGRESS     = validate type_io casts compare distance ball planner planner_btree_gist nulls fingerprint fingerprint_options fingerprint_icu fingerprint_cap stream stream_lz4 golden dump index
REGRESS_OPTS = --inputdir=. --outputdir=.

# Isolation specs (test/isolation/specs, expected output beside them).
ISOLATION   = index_vacuum index_insert
ISOLATION_OPTS = --inputdir=test/isolation --outputdir=test/isolation

# TAP tests live in test/t.
TAP_TESTS   = 1
PROVE_TESTS = test/t/*.pl

PG_CPPFLAGS = -I$(srcdir)/src -DSIMHASH_VERSION='"$(EXTVERSION)"' $(ICU_CFLAGS)
# Optimize at -O2 whatever the server's PGXS says: Debian 12's Makefile.global
# builds extensions with -O1, which costs simhash(text) about 10 %.
PG_CFLAGS   = -O2
SHLIB_LINK  = $(ICU_LIBS)
EXTRA_CLEAN = $(DATA_built) results regression.diffs regression.out tmp_check log \
              test/isolation/results test/isolation/regression.diffs test/isolation/regression.out

PG_CONFIG  ?= pg_config
PGXS       := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

$(EXTENSION)--$(EXTVERSION).sql: $(SQL_PARTS) $(EXTENSION).control Makefile
	( echo "-- simhash $(EXTVERSION): generated from src/sql/*.sql by make; edit those files."; \
	  printf '%s\n' '\echo Use "CREATE EXTENSION simhash" to load this file. \quit'; \
	  for f in $(SQL_PARTS); do echo; echo "-- ---- $$f"; cat $$f; done ) > $@

src/*.o: src/*.h
src/index/*.o: src/*.h src/index/*.h

# The parts of installcheck, each on its own (scripts/test.sh runs them).
.PHONY: installcheck-regress installcheck-isolation installcheck-tap print-test-count
print-test-count:
	@echo $(words $(REGRESS) $(ISOLATION))
installcheck-regress: submake $(REGRESS_PREP)
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(REGRESS)
installcheck-isolation: submake $(REGRESS_PREP)
	$(pg_isolation_regress_installcheck) $(ISOLATION_OPTS) $(ISOLATION)
installcheck-tap:
	$(prove_installcheck)
