/*
 * fingerprint/toast_decode.c
 *	  Streaming decoders of pglz and of the LZ4 block format (see
 *	  toast_decode.h for the contract).
 *
 * Both formats interleave literal bytes with back-references (offset,
 * length) into the output already produced.  Output goes into a window of
 * DECODE_WINDOW_BYTES: when it is full, the new bytes are emitted and the
 * last DECODE_HISTORY_BYTES are moved to its front, so every reference the
 * format allows (offsets up to 4095 for pglz, 65535 for LZ4) still lands
 * inside it.  (A value smaller than the window never fills it.)  Offsets are
 * checked against the bytes produced so far, and every length against
 * rawsize, before anything is copied.
 *
 * pglz (format as described at the top of PostgreSQL's pg_lzcompress.c): a
 * control byte announces 8 items, low bit first; a 0 bit is one literal
 * byte, a 1 bit a tag of 2 or 3 bytes: length - 3 in the low nibble of the
 * first byte (15 meaning: add the third byte to 18), the offset's high 4
 * bits in its high nibble and the low 8 bits in the second byte.  A tag
 * may reach past rawsize; it is cut there.  The data must end exactly when
 * rawsize bytes have been produced.
 *
 * LZ4 block: sequences of a token (literal count in the high nibble, match
 * length - 4 in the low nibble; 15 in either continues with bytes that add
 * 0..255 each, until one is not 255), the literals, a 2-byte little-endian
 * offset and the match; the last sequence stops after its literals, at the
 * end of the input.
 */
#include "c.h"

#include "fingerprint/toast_decode.h"

/* Where decoded bytes go: the window, and how far it is filled. */
typedef struct OutWindow
{
	char	   *buf;
	int32		size;			/* bytes of buf */
	int32		used;			/* bytes of buf in use */
	int32		emitted;		/* bytes of buf already passed to emit() */
	int64		produced;		/* bytes decoded in all */
} OutWindow;

StaticAssertDecl(PGLZ_MAX_OFFSET <= DECODE_HISTORY_BYTES &&
				 LZ4_MAX_OFFSET <= DECODE_HISTORY_BYTES,
				 "the history must hold the farthest back-reference");

/* Notes why the data is corrupt; returns false for the decoder to return. */
static bool
Corrupt(DecodeIO *io, const char *why)
{
	io->error = why;
	return false;
}

/*
 * A window of DECODE_WINDOW_BYTES slides; a smaller one must be larger than
 * the value (produced never exceeds rawsize, so it never fills).
 */
static bool
OutInit(OutWindow *w, DecodeIO *io, int64 rawsize)
{
	w->buf = io->window;
	w->size = io->windowsize;
	w->used = 0;
	w->emitted = 0;
	w->produced = 0;
	io->error = NULL;
	if (io->windowsize != DECODE_WINDOW_BYTES && io->windowsize <= rawsize)
		return Corrupt(io, "the window is smaller than the value");	/* caller's bug */
	return true;
}

/* Emits what is new in the window. */
static void
OutEmit(DecodeIO *io, OutWindow *w)
{
	if (w->used > w->emitted)
		io->emit(io, w->buf + w->emitted, w->used - w->emitted);
	w->emitted = w->used;
}

/* The window is full: emit it and keep only the history. */
static void
OutSlide(DecodeIO *io, OutWindow *w)
{
	OutEmit(io, w);
	memmove(w->buf, w->buf + w->used - DECODE_HISTORY_BYTES, DECODE_HISTORY_BYTES);
	w->used = w->emitted = DECODE_HISTORY_BYTES;
}

static inline void
OutByte(DecodeIO *io, OutWindow *w, unsigned char c)
{
	w->buf[w->used++] = (char) c;
	w->produced++;
	if (w->used == w->size)
		OutSlide(io, w);
}

/*
 * Appends len bytes copied from off bytes back (1 <= off <= produced, off
 * <= DECODE_HISTORY_BYTES); the source may overlap what is being written,
 * which repeats the last off bytes.
 */
static void
OutMatch(DecodeIO *io, OutWindow *w, int32 off, int64 len)
{
	while (len > 0)
	{
		int32		n = (int32) Min(len, (int64) (w->size - w->used));
		char	   *dst = w->buf + w->used;
		const char *src = dst - off;

		if (off >= n)
			memcpy(dst, src, n);
		else
			for (int32 i = 0; i < n; i++)
				dst[i] = src[i];
		w->used += n;
		w->produced += n;
		len -= n;
		if (w->used == w->size)
			OutSlide(io, w);
	}
}

/* Is there more input?  Refills when the current piece is used up. */
static inline bool
MoreInput(DecodeIO *io)
{
	return io->in < io->inend || io->refill(io);
}

/* The next input byte, or -1 at the end of the input. */
static inline int
NextByte(DecodeIO *io)
{
	if (!MoreInput(io))
		return -1;
	return *io->in++;
}

/* Appends len literal bytes from the input; false if it ends first. */
static bool
OutLiterals(DecodeIO *io, OutWindow *w, int64 len)
{
	while (len > 0)
	{
		int64		n;

		if (!MoreInput(io))
			return false;
		n = Min(len, (int64) (io->inend - io->in));
		n = Min(n, (int64) (w->size - w->used));
		memcpy(w->buf + w->used, io->in, n);
		io->in += n;
		w->used += n;
		w->produced += n;
		len -= n;
		if (w->used == w->size)
			OutSlide(io, w);
	}
	return true;
}

/*
 * The fast paths' copy of a match of len > 0 bytes from off > 0 bytes back:
 * with offsets of at least 16 (8) in steps of 16 (8) bytes, so that each
 * step reads only bytes already written.  May write up to 15 bytes past
 * out + len (the caller keeps that much room); those are overwritten later.
 */
static pg_attribute_always_inline void
CopyMatchFast(char *out, int64 off, int64 len)
{
	const char *src = out - off;

	if (likely(off >= 16))
	{
		memcpy(out, src, 16);
		for (int64 i = 16; unlikely(i < len); i += 16)
			memcpy(out + i, src + i, 16);
	}
	else if (off >= 8)
	{
		for (int64 i = 0; i < len; i += 8)
			memcpy(out + i, src + i, 8);
	}
	else
		for (int64 i = 0; i < len; i++)
			out[i] = src[i];
}

/*
 * A control group of pglz: a control byte and 8 items of at most 3 bytes.
 * PGLZ_FAST_SLACK: bytes the fast path's copies read or write past what
 * they use.
 */
#define PGLZ_GROUP_IN		25
#define PGLZ_FAST_SLACK		16

/*
 * Decodes the items of the control group at io->in without the checks that
 * cannot fail there, as far as it can: the caller has made sure that the
 * whole group and PGLZ_FAST_SLACK more bytes are in the current input
 * piece; the output must stay PGLZ_FAST_SLACK bytes short of room (the
 * bytes left before the window must slide or rawsize is reached), which is
 * checked before each item's copy.  Literals are copied 8 bytes at a time
 * (as many as stand before the next tag are kept), matches by
 * CopyMatchFast; what these copies write past the output is overwritten
 * later.  Sets *item to the items decoded (8, or fewer when
 * room ran short: then *control holds the rest of the control byte, the
 * next item in bit 0, and io->in points at that item) and returns true;
 * returns false, with io->error set, on a zero offset or one before the
 * start, as the general loop does.
 */
static pg_attribute_always_inline bool
PglzFastGroup(DecodeIO *io, OutWindow *w, int64 room, int *control, int *item)
{
	const unsigned char *in = io->in;
	char	   *start = w->buf + w->used;
	char	   *out = start;
	char	   *limit = start + room - PGLZ_FAST_SLACK;
	int64		before = w->produced;	/* bytes produced before start */
	/* the items not yet decoded, low bit first, and a 1 above them */
	unsigned int bits = *in++ | 0x100;

	for (;;)
	{
		/* the literals before the next tag, or the rest of the group */
		int			nlit = __builtin_ctz(bits);
		int32		len,
					off;
		int			taglen = 2;

		if (unlikely(limit - out < 8))
			break;
		memcpy(out, in, 8);
		out += nlit;
		in += nlit;
		bits >>= nlit;
		if (bits == 1)
			break;
		/* a tag: bit 0 of bits */
		len = (in[0] & 0x0f) + 3;
		off = ((in[0] & 0xf0) << 4) | in[1];
		if (len == 18)
			len += in[taglen++];
		if (unlikely(limit - out < len))
			break;
		in += taglen;
		bits >>= 1;
		if (unlikely(off == 0))
			return Corrupt(io, "zero offset");
		if (unlikely(off > before + (out - start)))
			return Corrupt(io, "offset before the start");
		CopyMatchFast(out, off, len);
		out += len;
		if (bits == 1)
			break;
	}
	io->in = in;
	w->used += out - start;
	w->produced += out - start;
	*control = (int) (bits & 0xff);
	*item = 8 - (31 - __builtin_clz(bits));
	return true;
}

bool
PglzDecodeStream(DecodeIO *io, int64 rawsize)
{
	OutWindow	w;

	if (!OutInit(&w, io, rawsize))
		return false;
	while (w.produced < rawsize && MoreInput(io))
	{
		int			control;
		int			item = 0;
		int64		room = Min((int64) (w.size - w.used), rawsize - w.produced);

		/* the fast path while it can take the group, or part of it */
		if (io->inend - io->in >= PGLZ_GROUP_IN + PGLZ_FAST_SLACK &&
			room >= 2 * PGLZ_FAST_SLACK)
		{
			if (!PglzFastGroup(io, &w, room, &control, &item))
				return false;
			if (item == 8)
				continue;
		}
		else
			control = *io->in++;

		for (; item < 8 && w.produced < rawsize && MoreInput(io);
			 item++, control >>= 1)
		{
			int			t1,
						t2;
			int32		len,
						off;

			if ((control & 1) == 0)
			{
				OutByte(io, &w, *io->in++);
				continue;
			}
			t1 = *io->in++;
			if ((t2 = NextByte(io)) < 0)
				return Corrupt(io, "the data ends inside a tag");
			len = (t1 & 0x0f) + 3;
			off = ((t1 & 0xf0) << 4) | t2;
			if (len == 18)
			{
				int			t3 = NextByte(io);

				if (t3 < 0)
					return Corrupt(io, "the data ends inside a tag");
				len += t3;
			}
			if (off == 0)
				return Corrupt(io, "zero offset");
			if (off > w.produced)
				return Corrupt(io, "offset before the start");
			OutMatch(io, &w, off, Min((int64) len, rawsize - w.produced));
		}
	}
	if (w.produced != rawsize)
		return Corrupt(io, "the data ends before the raw size");
	if (MoreInput(io))
		return Corrupt(io, "the data goes on past the raw size");
	OutEmit(io, &w);
	return true;
}

/*
 * Reads the extra length bytes of an LZ4 count whose nibble was 15 and adds
 * them to *count; false if the input ends or the count exceeds limit.
 */
static bool
Lz4ExtraLength(DecodeIO *io, int64 *count, int64 limit)
{
	int			b;

	do
	{
		if ((b = NextByte(io)) < 0)
			return Corrupt(io, "the data ends inside a length");
		*count += b;
		if (*count > limit)
			return Corrupt(io, "a length beyond the raw size");
	} while (b == 255);
	return true;
}

/* LZ4's end-of-block rules. */
#define LZ4_LAST_LITERALS	5	/* the last 5 bytes are literals */
#define LZ4_LAST_MATCH_START 12 /* no match starts in the last 12 bytes */

/* Bytes the fast path's 16-byte copies read or write past what they use. */
#define LZ4_FAST_SLACK		16

/*
 * Reads the extra length bytes of an LZ4 count at *p (its nibble was 15),
 * not past end, into *count; false if they do not end before end.
 */
static pg_attribute_always_inline bool
Lz4FastLength(const unsigned char **p, const unsigned char *end, int64 *count)
{
	const unsigned char *q = *p;

	while (q < end)
	{
		int			b = *q++;

		*count += b;
		if (b != 255)
		{
			*p = q;
			return true;
		}
	}
	return false;
}

/*
 * Decodes the sequence at io->in (literals and a match) when nothing about
 * it needs the general loop: it lies whole in the current input piece with
 * LZ4_FAST_SLACK bytes to spare, its output fits in the window with as many
 * to spare (no slide), and it passes every check the general loop makes.
 * Everything is read and checked before anything is written; returns false,
 * having changed nothing, for the general loop to take the sequence (and
 * report what is wrong, if anything is).  Literals are copied 16 bytes at a
 * time, matches by CopyMatchFast; what these copies write past the output is
 * overwritten later.
 */
static pg_attribute_always_inline bool
Lz4FastSequence(DecodeIO *io, OutWindow *w, int64 rawsize)
{
	const unsigned char *p = io->in;
	const unsigned char *end;
	const unsigned char *lit;
	int			token;
	int64		literals,
				matchlen,
				produced;
	int32		off;
	char	   *out;

	if (io->inend - p < LZ4_FAST_SLACK + 4)
		return false;
	end = io->inend - LZ4_FAST_SLACK;
	token = *p++;
	literals = token >> 4;
	if (literals == 15 && !Lz4FastLength(&p, end, &literals))
		return false;
	/* the literals, the offset and the match's first byte lie before end */
	if (literals > end - p - 3 || literals > rawsize - w->produced)
		return false;
	lit = p;
	p += literals;
	off = p[0] | (p[1] << 8);
	p += 2;
	matchlen = (token & 0x0f) + 4;
	if ((token & 0x0f) == 15 && !Lz4FastLength(&p, end, &matchlen))
		return false;
	produced = w->produced + literals;
	if (off == 0 || off > produced ||
		produced > rawsize - LZ4_LAST_MATCH_START ||
		matchlen > rawsize - LZ4_LAST_LITERALS - produced ||
		literals + matchlen > (int64) (w->size - w->used) - LZ4_FAST_SLACK)
		return false;

	out = w->buf + w->used;
	for (int64 i = 0; i < literals; i += 16)
		memcpy(out + i, lit + i, 16);
	out += literals;
	CopyMatchFast(out, off, matchlen);
	io->in = p;
	w->used += (int32) (literals + matchlen);
	w->produced += literals + matchlen;
	return true;
}

bool
Lz4DecodeStream(DecodeIO *io, int64 rawsize)
{
	OutWindow	w;

	if (!OutInit(&w, io, rawsize))
		return false;
	for (;;)
	{
		int			token;
		int64		literals,
					matchlen;
		int			lo,
					hi;
		int32		off;

		if (Lz4FastSequence(io, &w, rawsize))
			continue;
		token = NextByte(io);
		if (token < 0)
			return Corrupt(io, "the data ends where a sequence should start");
		if (rawsize == 0 && token != 0)
			return Corrupt(io, "an empty block is not a single zero token");
		literals = token >> 4;
		if (literals == 15 && !Lz4ExtraLength(io, &literals, rawsize))
			return false;
		if (literals > rawsize - w.produced)
			return Corrupt(io, "literals beyond the raw size");
		if (!OutLiterals(io, &w, literals))
			return Corrupt(io, "the data ends inside literals");
		if (!MoreInput(io))
			break;				/* the last sequence has no match */

		lo = NextByte(io);
		if ((hi = NextByte(io)) < 0)
			return Corrupt(io, "the data ends inside an offset");
		off = lo | (hi << 8);
		if (off == 0)
			return Corrupt(io, "zero offset");
		if (off > w.produced)
			return Corrupt(io, "offset before the start");
		matchlen = (token & 0x0f) + 4;
		if ((token & 0x0f) == 15 && !Lz4ExtraLength(io, &matchlen, rawsize))
			return false;
		if (w.produced > rawsize - LZ4_LAST_MATCH_START ||
			matchlen > rawsize - LZ4_LAST_LITERALS - w.produced)
			return Corrupt(io, "a match in the last bytes of the block");
		OutMatch(io, &w, off, matchlen);
	}
	if (w.produced != rawsize)
		return Corrupt(io, "the data ends before the raw size");
	OutEmit(io, &w);
	return true;
}
