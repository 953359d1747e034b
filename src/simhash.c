/*
 * simhash.c
 *	  Module-level items of the simhash extension: the module magic, the
 *	  library's _PG_init, and the version reporting function.
 */
#include "type/simhash.h"

#include "utils/builtins.h"
#include "utils/guc.h"

#include "fingerprint/fingerprint.h"
#include "index/index.h"
#include "planner/planner.h"
#include "workflows/workflows.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/*
 * Called once when the library is loaded into a backend.  Each area that
 * needs start-up work gets its own init function, called from here.
 */
void
_PG_init(void)
{
#ifdef SIMHASH_LOADED_BESIDE
	/*
	 * A copy built by scripts/bench-dual.sh, loaded beside the installed
	 * library, which defines the settings and hooks: only its functions run.
	 */
	return;
#endif
	SimhashFingerprintInit();
	SimhashPlannerInit();
	SimhashIndexInit();
	SimhashWorkflowsInit();
	MarkGUCPrefixReserved("simhash");
}

/*
 * simhash_version() returns the version of the loaded shared library, which
 * must agree with the installed SQL objects (see doc/upgrading.md).
 */
PG_FUNCTION_INFO_V1(simhash_version);
Datum
simhash_version(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(SIMHASH_VERSION));
}
