# simhash -- PGXS build.
#
# The extension version lives in simhash.control (default_version) and only
# there: this Makefile derives the install script's name and the C constant
# SIMHASH_VERSION from it.

EXTENSION   = simhash
EXTVERSION  = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big  = simhash
# One folder per layer (src/README.md): the types, fingerprinting, the index
# access method, planner support, web pages, the workflows over whole tables;
# simhash.c holds the module-level items.
OBJS        = src/simhash.o \
              $(patsubst %.c,%.o,$(sort $(wildcard $(srcdir)/src/type/*.c))) \
              $(patsubst %.c,%.o,$(sort $(wildcard $(srcdir)/src/fingerprint/*.c))) \
              $(patsubst %.c,%.o,$(sort $(wildcard $(srcdir)/src/index/*.c))) \
              $(patsubst %.c,%.o,$(sort $(wildcard $(srcdir)/src/planner/*.c))) \
              $(patsubst %.c,%.o,$(sort $(wildcard $(srcdir)/src/html/*.c))) \
              $(patsubst %.c,%.o,$(sort $(wildcard $(srcdir)/src/workflows/*.c)))

# The install script is assembled from src/install/*.sql in the order of
# their numbers (src/install/README.md).  One piece is written by a script,
# GENERATED_SQL from SQL_GENERATOR, and kept in the tree for review.
SQL_PARTS   = $(sort $(wildcard $(srcdir)/src/install/*.sql))
GENERATED_SQL = $(srcdir)/src/install/55_distance_compare.sql
SQL_GENERATOR = $(srcdir)/src/install/gen/distance_compare.sh
# The upgrade scripts between versions are built from src/install/upgrade/:
# a line "-- include: src/install/NN_x.sql" there stands for a piece added
# whole, so that the piece is written once (src/install/README.md).
UPGRADE_SRC = $(sort $(wildcard $(srcdir)/src/install/upgrade/*.sql))
DATA_built  = $(EXTENSION)--$(EXTVERSION).sql $(notdir $(UPGRADE_SRC))
# Released versions' install scripts, frozen as shipped (CONTRIBUTING.md).
DATA        = $(patsubst $(srcdir)/%,%,$(sort $(wildcard $(srcdir)/src/install/released/*.sql)))

# Regression tests (sql/ + expected/), run in this order by "make installcheck".
REGRESS     = validate type_io casts compare distance ball planner planner_btree_gist nulls fingerprint fingerprint_options fingerprint_icu fingerprint_cap html stream stream_lz4 golden dump index index_explain index_skew planner_security workflows exclude
REGRESS_OPTS = --inputdir=. --outputdir=.

# Isolation specs (test/isolation/specs, expected output beside them).
ISOLATION   = index_vacuum index_insert exclude
ISOLATION_OPTS = --inputdir=test/isolation --outputdir=test/isolation

# TAP tests live in test/t.
TAP_TESTS   = 1
PROVE_TESTS = test/t/*.pl

# libxml2 (src/html/) through pkg-config; ICU's flags come from PGXS.
PKG_CONFIG ?= pkg-config
XML2_CFLAGS := $(shell $(PKG_CONFIG) --cflags libxml-2.0)
XML2_LIBS   := $(shell $(PKG_CONFIG) --libs libxml-2.0)
PG_CPPFLAGS = -I$(srcdir)/src -DSIMHASH_VERSION='"$(EXTVERSION)"' $(ICU_CFLAGS) $(XML2_CFLAGS)
# Optimize at -O2 whatever the server's PGXS says: Debian 12's Makefile.global
# builds extensions with -O1, which costs simhash(text) about 10 %.
PG_CFLAGS   = -O2
SHLIB_LINK  = $(ICU_LIBS) $(XML2_LIBS)
EXTRA_CLEAN = $(DATA_built) results regression.diffs regression.out tmp_check log \
              test/isolation/results test/isolation/regression.diffs test/isolation/regression.out

PG_CONFIG  ?= pg_config
PGXS       := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

$(EXTENSION)--$(EXTVERSION).sql: $(SQL_PARTS) $(EXTENSION).control Makefile
	( echo "-- simhash $(EXTVERSION): generated from src/install/*.sql by make; edit those files."; \
	  printf '%s\n' '\echo Use "CREATE EXTENSION simhash" to load this file. \quit'; \
	  for f in $(SQL_PARTS); do echo; echo "-- ---- $${f#$(srcdir)/}"; cat $$f; done ) > $@

$(notdir $(UPGRADE_SRC)): %.sql: $(srcdir)/src/install/upgrade/%.sql $(SQL_PARTS) Makefile
	awk -v root='$(srcdir)/' '/^-- include: / { f = root $$3; n = 0; \
	    print "-- ---- " $$3; \
	    while ((getline line < f) > 0) { print line; n++ } close(f); \
	    if (n == 0) { print "missing or empty: " f > "/dev/stderr"; exit 1 } next } { print }' $< > $@

# "make generate" rewrites the generated piece after an edit of its script;
# "make check-generated" (scripts/test.sh) fails when the two disagree.
.PHONY: generate check-generated
generate:
	sh $(SQL_GENERATOR) > $(GENERATED_SQL)
check-generated:
	@sh $(SQL_GENERATOR) | cmp -s - $(GENERATED_SQL) || \
	  { echo "$(GENERATED_SQL) is not what $(SQL_GENERATOR) writes: run make generate" >&2; exit 1; }

# Every object depends on every header: simple, and a rebuild takes seconds.
$(OBJS): $(wildcard $(srcdir)/src/*.h $(srcdir)/src/*/*.h)

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
