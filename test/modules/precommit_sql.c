/*
 * test/modules/precommit_sql.c
 *	  A test-only server module (built and loaded by t/014_index_commit.pl,
 *	  never installed): at PRE_COMMIT it runs the SQL in the setting
 *	  precommit_sql.command through SPI (tests SET LOCAL it in the one
 *	  transaction it is for).  Loaded through
 *	  shared_preload_libraries, its transaction callback is registered before
 *	  the simhash library's and so runs after it (the core calls callbacks
 *	  newest first): rows it inserts arrive after the index's batch has been
 *	  written at commit, like another extension's pre-commit work.
 *
 *	  SET precommit_sql.cancel = on registers a second callback, then, after
 *	  the simhash library's, so that it runs before it: at PRE_COMMIT it
 *	  marks a query cancel pending (as a cancel request arriving then would),
 *	  which the writing of the index's batch meets.
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static char *command = NULL;
static bool cancel = false;

static void
CancelCallback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_PRE_COMMIT && cancel)
	{
		InterruptPending = true;
		QueryCancelPending = true;
	}
}

static void
AssignCancel(bool newval, void *extra)
{
	static bool registered = false;

	if (newval && !registered)
	{
		RegisterXactCallback(CancelCallback, NULL);
		registered = true;
	}
}

static void
PrecommitCallback(XactEvent event, void *arg)
{
	static bool running = false;

	if (event != XACT_EVENT_PRE_COMMIT || running || command == NULL || command[0] == '\0')
		return;
	running = true;
	PG_TRY();
	{
		PushActiveSnapshot(GetTransactionSnapshot());
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "precommit_sql: SPI_connect failed");
		if (SPI_execute(command, false, 0) < 0)
			elog(ERROR, "precommit_sql: \"%s\" failed", command);
		SPI_finish();
		PopActiveSnapshot();
	}
	PG_FINALLY();
	{
		running = false;
	}
	PG_END_TRY();
}

void
_PG_init(void)
{
	DefineCustomStringVariable("precommit_sql.command",
							   "SQL run at PRE_COMMIT of every transaction (tests only).",
							   NULL, &command, "", PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("precommit_sql.cancel",
							 "Marks a query cancel pending at PRE_COMMIT, before simhash's callback (tests only).",
							 NULL, &cancel, false, PGC_USERSET, 0, NULL, AssignCancel, NULL);
	RegisterXactCallback(PrecommitCallback, NULL);
}
