/*
 * backend_stubs.h
 *	  The few backend functions that the fingerprint code calls, for the
 *	  standalone test programs of test/fuzz that link it outside a server:
 *	  memory from malloc (never freed by a context: contexts are not
 *	  tracked, reset callbacks never run), errors printed and fatal (exit
 *	  2), and StringInfo.  Include it once per program, after postgres.h,
 *	  lib/stringinfo.h and utils/memutils.h, with printf and its kin
 *	  #undef'd (the C library's, not libpgport's).
 */
#ifndef SIMHASH_BACKEND_STUBS_H
#define SIMHASH_BACKEND_STUBS_H

MemoryContext CurrentMemoryContext = NULL;
MemoryContext TopMemoryContext = NULL;

static void *
Checked(void *p)
{
	if (p == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

void *
palloc(Size size)
{
	return Checked(malloc(Max(size, 1)));
}

void *
palloc0(Size size)
{
	return Checked(calloc(1, Max(size, 1)));
}

void *
repalloc(void *pointer, Size size)
{
	return Checked(realloc(pointer, Max(size, 1)));
}

void
pfree(void *pointer)
{
	free(pointer);
}

void *
MemoryContextAlloc(MemoryContext context, Size size)
{
	return palloc(size);
}

void *
MemoryContextAllocZero(MemoryContext context, Size size)
{
	return palloc0(size);
}

void *
MemoryContextAllocExtended(MemoryContext context, Size size, int flags)
{
	return (flags & MCXT_ALLOC_ZERO) ? palloc0(size) : palloc(size);
}

char *
pnstrdup(const char *in, Size len)
{
	char	   *out = palloc(len + 1);

	memcpy(out, in, len);
	out[len] = '\0';
	return out;
}

void
MemoryContextRegisterResetCallback(MemoryContext context, MemoryContextCallback *cb)
{
	/* every table here is used up by CapTableApply */
}

#undef qsort
void
pg_qsort(void *base, size_t nel, size_t elsize, int (*cmp) (const void *, const void *))
{
	qsort(base, nel, elsize, cmp);
}

bool
errstart(int elevel, const char *domain)
{
	return elevel >= ERROR;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

int
errcode(int sqlerrcode)
{
	return 0;
}

int
errmsg(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;
}

int
errmsg_internal(const char *fmt,...)
{
	return 0;
}

int
errdetail(const char *fmt,...)
{
	return 0;
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	fprintf(stderr, "error at %s:%d\n", filename, lineno);
	exit(2);
}

/* StringInfo without the backend: the few functions the programs use. */
void
initStringInfo(StringInfo str)
{
	str->maxlen = 1024;
	str->data = palloc(str->maxlen);
	resetStringInfo(str);
}

void
resetStringInfo(StringInfo str)
{
	str->data[0] = '\0';
	str->len = 0;
	str->cursor = 0;
}

/* (PostgreSQL 16 made data a const void *) */
void
#if PG_VERSION_NUM >= 160000
appendBinaryStringInfo(StringInfo str, const void *data, int datalen)
#else
appendBinaryStringInfo(StringInfo str, const char *data, int datalen)
#endif
{
	if (str->len + datalen + 1 > str->maxlen)
	{
		str->maxlen = 2 * (str->len + datalen + 1);
		str->data = repalloc(str->data, str->maxlen);
	}
	memcpy(str->data + str->len, data, datalen);
	str->len += datalen;
	str->data[str->len] = '\0';
}

void
appendStringInfoChar(StringInfo str, char ch)
{
	appendBinaryStringInfo(str, &ch, 1);
}

#endif							/* SIMHASH_BACKEND_STUBS_H */
