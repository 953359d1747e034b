/*
 * fingerprint/stream.c
 *	  Feeds a document stored out of line (external TOAST) to the segmenter
 *	  piece by piece, so that fingerprinting it takes bounded memory whatever
 *	  its size (up to the 1 GB limit of text).
 *
 * The stored bytes are read in slices of whole TOAST chunks, in order
 * (table_relation_fetch_toast_slice, one index range scan per slice):
 *	  - uncompressed (STORAGE EXTERNAL): the slices are the text;
 *	  - compressed (pglz or lz4): the slices are the compressed data, whose
 *		first 4 bytes give the raw size and the method; toast_decode.c
 *		decodes it as a stream.  (PostgreSQL's own slice access to a
 *		compressed value decompresses from the start every time.)
 * The text then goes to the segmenter's window (SegmentStreamFeed), which
 * cuts the chunks where SegmentDocument would cut them in the whole text:
 * the fingerprints are the same as from the detoasted value.  (An
 * uncompressed UTF-8 value that fits in one slice is segmented where it
 * lies; so is a compressed one smaller than the decoder's window, in the
 * window.)
 *
 * A value compressed with pglz in its row (VARATT_IS_COMPRESSED: a document
 * of a few kB) goes through the same decoder, from the row
 * (SegmentCompressedDocument): PostgreSQL's decompression into a copy
 * takes about 1.4 times as long.
 *
 * In a database whose encoding is neither UTF8 nor SQL_ASCII, the text is
 * converted to UTF-8 in pieces of whole characters (conversions between
 * server encodings and UTF-8 map each character on its own).
 *
 * Memory: the slice, the decoder's window, the conversion buffers and the
 * segmenter's window, about 0.5 MB in all (a short value gets buffers of
 * its own size: large ones that come and go cost page faults); index scan memory is released
 * after each slice.  Interrupts are checked after each slice.
 */
#include "fingerprint/tokenizer.h"
#include "fingerprint/toast_decode.h"

#include "access/detoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/heaptoast.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* Stored bytes read at a time: whole TOAST chunks, about 128 kB. */
#define SLICE_BYTES		(64 * TOAST_MAX_CHUNK_SIZE)

/* Text converted to UTF-8 at a time, in a non-UTF-8 database. */
#define CONVERT_BYTES	(64 * 1024)

/*
 * Values compressed with lz4 and stored out of line of less than this many
 * bytes of text are detoasted (at most twice this much memory) rather than
 * streamed: liblz4 decodes faster than toast_decode.c.
 */
#define LZ4_DETOAST_BYTES	(1024 * 1024)

/* The stored bytes of one external value, read slice by slice. */
typedef struct ToastReader
{
	Relation	rel;			/* the TOAST table */
	Oid			valueid;
	int32		extsize;		/* stored bytes */
	int32		offset;			/* stored bytes read so far */
	struct varlena *slice;		/* SLICE_BYTES + VARHDRSZ */
	MemoryContext fetchcxt;		/* scan memory of one slice */
} ToastReader;

/* The text on its way to the segmenter, converted to UTF-8 if need be. */
typedef struct TextSink
{
	SegmentStream *ss;
	bool		convert;		/* from the database encoding to UTF-8? */
	char	   *pending;		/* text not yet converted */
	int32		npending;
} TextSink;

/*
 * The next slice of stored bytes: sets *data and returns its length, or 0
 * after the last slice.
 */
static int32
ToastReaderNext(ToastReader *r, const char **data)
{
	int32		n = Min((int32) SLICE_BYTES, r->extsize - r->offset);
	MemoryContext old;

	if (n <= 0)
		return 0;
	CHECK_FOR_INTERRUPTS();
	old = MemoryContextSwitchTo(r->fetchcxt);
	table_relation_fetch_toast_slice(r->rel, r->valueid, r->extsize,
									 r->offset, n, r->slice);
	MemoryContextSwitchTo(old);
	MemoryContextReset(r->fetchcxt);
	r->offset += n;
	*data = VARDATA(r->slice);
	return n;
}

/* Converts the whole characters of the pending text and feeds them. */
static void
SinkConvert(TextSink *sink, bool final)
{
	int			enc = GetDatabaseEncoding();
	int32		whole = 0;
	char	   *utf8;

	/* whole characters; at the end, all of it (the conversion checks it) */
	if (final)
		whole = sink->npending;
	else
		while (whole < sink->npending)
		{
			int			l = pg_encoding_mblen(enc, sink->pending + whole);

			if (whole + l > sink->npending)
				break;
			whole += l;
		}
	if (whole == 0)
		return;
	utf8 = pg_server_to_any(sink->pending, whole, PG_UTF8);
	SegmentStreamFeed(sink->ss, utf8, utf8 == sink->pending ? (size_t) whole : strlen(utf8));
	if (utf8 != sink->pending)
		pfree(utf8);
	memmove(sink->pending, sink->pending + whole, sink->npending - whole);
	sink->npending -= whole;
}

/* Takes the next len bytes of the text, in the database encoding. */
static void
SinkText(TextSink *sink, const char *s, size_t len)
{
	if (!sink->convert)
	{
		SegmentStreamFeed(sink->ss, s, len);
		return;
	}
	while (len > 0)
	{
		size_t		n = Min(len, (size_t) (CONVERT_BYTES - sink->npending));

		memcpy(sink->pending + sink->npending, s, n);
		sink->npending += n;
		s += n;
		len -= n;
		if (sink->npending == CONVERT_BYTES)
			SinkConvert(sink, false);
	}
}

/*
 * DecodeIO callbacks: compressed bytes from the reader, text to the sink;
 * or, without a sink, the text of a value smaller than the decoder's
 * window, which the decoder passes on once, whole (toast_decode.h), kept
 * where it lies.
 */
typedef struct DecodeArgs
{
	ToastReader *reader;
	TextSink   *sink;
	const char *whole;			/* without a sink: the text, or NULL */
	size_t		wholelen;
} DecodeArgs;

static bool
DecodeRefill(DecodeIO *io)
{
	DecodeArgs *args = io->arg;
	const char *data;
	int32		n;

	if (args->reader == NULL)
		return false;			/* an inline value: all given at once */
	n = ToastReaderNext(args->reader, &data);

	if (n == 0)
		return false;
	io->in = (const unsigned char *) data;
	io->inend = io->in + n;
	return true;
}

static void
DecodeEmit(DecodeIO *io, const char *data, size_t len)
{
	DecodeArgs *args = io->arg;

	if (args->sink == NULL)
	{
		Assert(args->whole == NULL);
		args->whole = data;
		args->wholelen = len;
		return;
	}
	SinkText(args->sink, data, len);
}

/*
 * Reports the compressed value that reader reads (NULL: the inline value
 * being decoded) as corrupt: SQLSTATE XX001, what is wrong in why.
 */
static void
ReportCorrupt(ToastReader *reader, const char *method, const char *why)
{
	if (reader == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("compressed %s data is corrupt", method),
				 errdetail("An inline value: %s.", why)));
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("compressed %s data is corrupt", method),
			 errdetail("Toast value %u in \"%s\": %s.",
					   reader->valueid, RelationGetRelationName(reader->rel), why)));
}

/*
 * Decodes compressed stored bytes (the first slice is data[0..n); reader
 * NULL: all of them, an inline value's) into sink; or, with sink NULL
 * (UTF-8 text smaller than DECODE_WINDOW_BYTES), decodes them whole into
 * the decoder's window and feeds the tokens of the text there to fx, as
 * SegmentDocument does: no second copy of the text.
 */
static void
DecodeCompressed(ToastReader *reader, TextSink *sink, const char *data, int32 n,
				 bool numbers, FeatureExtractor *fx)
{
	DecodeArgs	args = {reader, sink, NULL, 0};
	DecodeIO	io;
	uint32		tcinfo;
	int			method;
	int64		rawsize;
	bool		ok;
	const char *name;

	if (n < (int32) sizeof(tcinfo))
		ReportCorrupt(reader, "toast", "shorter than its header");
	memcpy(&tcinfo, data, sizeof(tcinfo));
	rawsize = tcinfo & VARLENA_EXTSIZE_MASK;
	method = tcinfo >> VARLENA_EXTSIZE_BITS;

	io.in = (const unsigned char *) data + sizeof(tcinfo);
	io.inend = (const unsigned char *) data + n;
	io.refill = DecodeRefill;
	io.emit = DecodeEmit;
	io.arg = &args;
	io.windowsize = DecodeWindowBytes(rawsize);
	io.window = palloc(io.windowsize);
	switch (method)
	{
		case TOAST_PGLZ_COMPRESSION_ID:
			name = "pglz";
			ok = PglzDecodeStream(&io, rawsize);
			break;
		case TOAST_LZ4_COMPRESSION_ID:
			name = "lz4";
			ok = Lz4DecodeStream(&io, rawsize);
			break;
		default:
			ReportCorrupt(reader, "toast", psprintf("invalid compression method id %d", method));
			pg_unreachable();
	}
	if (!ok)
		ReportCorrupt(reader, name, io.error);
	if (sink == NULL)
	{
		Assert(io.windowsize > rawsize);
		SegmentDocument(args.whole ? args.whole : "", args.wholelen, numbers, fx);
	}
	pfree(io.window);
}

/*
 * Feeds the kept tokens of the text whose external on-disk TOAST pointer is
 * attr to fx, exactly as SegmentDocument would from the detoasted (and
 * converted) text.
 */
static void
SegmentToastedDocument(struct varlena *attr, bool numbers, FeatureExtractor *fx)
{
	struct varatt_external pointer;
	ToastReader reader;
	TextSink	sink;
	const char *data;
	int32		n;
	int			enc = GetDatabaseEncoding();
	bool		compressed;

	Assert(VARATT_IS_EXTERNAL_ONDISK(attr));
	VARATT_EXTERNAL_GET_POINTER(pointer, attr);

	reader.rel = table_open(pointer.va_toastrelid, AccessShareLock);
	reader.valueid = pointer.va_valueid;
	reader.extsize = VARATT_EXTERNAL_GET_EXTSIZE(pointer);
	reader.offset = 0;
	/* a value shorter than a slice gets buffers of its size */
	reader.slice = palloc(Min((int32) SLICE_BYTES, reader.extsize) + VARHDRSZ);
	reader.fetchcxt = AllocSetContextCreate(CurrentMemoryContext,
											"simhash toast slice",
											ALLOCSET_DEFAULT_SIZES);

	sink.convert = enc != PG_UTF8 && enc != PG_SQL_ASCII;
	n = ToastReaderNext(&reader, &data);
	/* VARATT_EXTERNAL_IS_COMPRESSED, without its signed/unsigned compare */
	compressed = reader.extsize < pointer.va_rawsize - VARHDRSZ;
	sink.pending = NULL;
	if (!compressed && !sink.convert && n == reader.extsize)
	{
		/* the whole text in one slice (a page, say): no window needed */
		SegmentDocument(data, n, numbers, fx);
	}
	else if (compressed && !sink.convert &&
			 pointer.va_rawsize - VARHDRSZ < DECODE_WINDOW_BYTES)
	{
		/* decoded whole in the decoder's window, and segmented there */
		DecodeCompressed(&reader, NULL, data, n, numbers, fx);
	}
	else
	{
		sink.ss = SegmentStreamBegin(numbers, fx, pointer.va_rawsize - VARHDRSZ);
		sink.pending = sink.convert ? palloc(CONVERT_BYTES) : NULL;
		sink.npending = 0;
		if (compressed)
			DecodeCompressed(&reader, &sink, data, n, numbers, fx);
		else
			for (; n > 0; n = ToastReaderNext(&reader, &data))
				SinkText(&sink, data, n);
		if (sink.convert)
			SinkConvert(&sink, true);
		SegmentStreamEnd(sink.ss);
	}

	table_close(reader.rel, AccessShareLock);
	MemoryContextDelete(reader.fetchcxt);
	pfree(reader.slice);
	if (sink.pending)
		pfree(sink.pending);
}

/*
 * If attr is a value compressed with pglz in its row (VARATT_IS_COMPRESSED:
 * a document of a few kB, compressed to fit in its row) and the database's
 * encoding is UTF8 or SQL_ASCII, feeds the kept tokens of its text to fx,
 * exactly as SegmentDocument would from the detoasted text, and returns
 * true: decoded by toast_decode.c into a window of the text's size and
 * segmented there (or, for a text larger than the decoder's window, fed to
 * the segmenter's window) instead of decompressed by PostgreSQL into a
 * copy.  Otherwise returns false and does nothing: lz4 is left to liblz4,
 * which decodes faster than toast_decode.c (the copy it makes costs about
 * what it saves).
 */
static bool
SegmentCompressedDocument(struct varlena *attr, bool numbers, FeatureExtractor *fx)
{
	const char *data = VARDATA(attr);	/* va_tcinfo, then the data */
	int32		n = VARSIZE(attr) - VARHDRSZ;
	int			enc = GetDatabaseEncoding();
	uint32		tcinfo;
	int64		rawsize;

	if (!VARATT_IS_COMPRESSED(attr) || (enc != PG_UTF8 && enc != PG_SQL_ASCII) ||
		n < (int32) sizeof(tcinfo))
		return false;
	memcpy(&tcinfo, data, sizeof(tcinfo));
	if ((tcinfo >> VARLENA_EXTSIZE_BITS) != TOAST_PGLZ_COMPRESSION_ID)
		return false;
	rawsize = tcinfo & VARLENA_EXTSIZE_MASK;
	if (rawsize < DECODE_WINDOW_BYTES)
		DecodeCompressed(NULL, NULL, data, n, numbers, fx);
	else
	{
		TextSink	sink;

		sink.ss = SegmentStreamBegin(numbers, fx, rawsize);
		sink.convert = false;
		sink.pending = NULL;
		sink.npending = 0;
		DecodeCompressed(NULL, &sink, data, n, numbers, fx);
		SegmentStreamEnd(sink.ss);
	}
	return true;
}

/*
 * Feeds the kept tokens of the text of attr, a text datum as it was
 * stored, to fx, exactly as SegmentDocument would from the detoasted (and
 * converted) text, and returns true, where reading it here costs less
 * time or memory than detoasting it:
 *	  - stored out of line: read slice by slice (SegmentToastedDocument),
 *		except a value compressed with lz4 of less than LZ4_DETOAST_BYTES,
 *		which liblz4 decodes faster than toast_decode.c;
 *	  - compressed with pglz in its row (SegmentCompressedDocument).
 * Otherwise returns false and does nothing: the caller detoasts attr.
 */
bool
SegmentStoredDocument(struct varlena *attr, bool numbers, FeatureExtractor *fx)
{
	if (VARATT_IS_EXTERNAL_ONDISK(attr))
	{
		struct varatt_external pointer;

		VARATT_EXTERNAL_GET_POINTER(pointer, attr);
		/* VARATT_EXTERNAL_IS_COMPRESSED, without its signed/unsigned compare */
		if ((int32) VARATT_EXTERNAL_GET_EXTSIZE(pointer) < pointer.va_rawsize - VARHDRSZ &&
			VARATT_EXTERNAL_GET_COMPRESS_METHOD(pointer) == TOAST_LZ4_COMPRESSION_ID &&
			pointer.va_rawsize - VARHDRSZ < LZ4_DETOAST_BYTES)
			return false;
		SegmentToastedDocument(attr, numbers, fx);
		return true;
	}
	return SegmentCompressedDocument(attr, numbers, fx);
}
