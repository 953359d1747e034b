/*
 * fingerprint/toast_decode.h
 *	  Streaming decoders of the two compression formats of TOAST (pglz and
 *	  the LZ4 block format), written from the format descriptions.
 *
 * The decoders depend on nothing but c.h, so that a standalone program
 * (test/fuzz/decode_fuzz.c) can compare them with PostgreSQL's and liblz4's
 * own decompression on many random inputs.
 *
 * A decoder pulls compressed bytes through refill() and pushes decoded
 * bytes through emit(), in pieces of at most DECODE_WINDOW_BYTES, keeping
 * only the history a back-reference may reach (4 kB for pglz, 64 kB for
 * LZ4).  Memory: the window the caller provides (DecodeWindowBytes: at most
 * DECODE_WINDOW_BYTES, whatever the size of the value).
 */
#ifndef SIMHASH_TOAST_DECODE_H
#define SIMHASH_TOAST_DECODE_H

/* Decoded bytes are passed on about every this many bytes. */
#define DECODE_FLUSH_BYTES	(64 * 1024)

/* Farthest back-reference of each format. */
#define PGLZ_MAX_OFFSET		4095
#define LZ4_MAX_OFFSET		65535

/* History kept in front of new output: enough for either format. */
#define DECODE_HISTORY_BYTES (64 * 1024)

/* The output window a decoder writes into: history, then new bytes. */
#define DECODE_WINDOW_BYTES	(DECODE_HISTORY_BYTES + DECODE_FLUSH_BYTES)

typedef struct DecodeIO
{
	/* unread compressed bytes of the current piece */
	const unsigned char *in;
	const unsigned char *inend;

	/*
	 * Makes [in, inend) the next non-empty piece of compressed input, or
	 * returns false when the input has ended.
	 */
	bool		(*refill) (struct DecodeIO *io);

	/* Takes the next len decoded bytes (0 < len <= DECODE_WINDOW_BYTES). */
	void		(*emit) (struct DecodeIO *io, const char *data, size_t len);

	void	   *arg;			/* for the callbacks */
	char	   *window;			/* windowsize bytes of scratch space */
	int32		windowsize;		/* DecodeWindowBytes(rawsize) or more */

	/* set by a decoder that returns false: what is wrong (a constant) */
	const char *error;
} DecodeIO;

/*
 * The window a value of rawsize bytes needs: DECODE_WINDOW_BYTES, or, for a
 * smaller value, one byte more than the value (it then never slides, and
 * emit() is called once, at the end, with the whole value, unless it is
 * empty; stream.c segments it there).
 */
static inline int32
DecodeWindowBytes(int64 rawsize)
{
	return rawsize < DECODE_WINDOW_BYTES ? (int32) rawsize + 1 : DECODE_WINDOW_BYTES;
}

/*
 * Each decodes the whole compressed input into exactly rawsize bytes and
 * returns true, or returns false as soon as the input proves corrupt (some
 * output may have been emitted by then).  They never read or write outside
 * the pieces and the window they are given.
 *
 * pglz accepts and rejects exactly what PostgreSQL's pglz_decompress(...,
 * check_complete = true) does.  LZ4 rejects, besides what breaks the block
 * format (a zero offset, a reference before the start, truncated input), a
 * block whose output is not exactly rawsize bytes, and one that ignores the
 * format's end-of-block rules (the last 5 bytes are literals, the last
 * match starts at least 12 bytes before the end).
 */
extern bool PglzDecodeStream(DecodeIO *io, int64 rawsize);
extern bool Lz4DecodeStream(DecodeIO *io, int64 rawsize);

#endif							/* SIMHASH_TOAST_DECODE_H */
