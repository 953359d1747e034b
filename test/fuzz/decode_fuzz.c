/*
 * decode_fuzz.c
 *	  Compares the streaming decoders of src/fingerprint/toast_decode.c with
 *	  PostgreSQL's pglz_decompress and liblz4's LZ4_decompress_safe (the
 *	  functions TOAST uses) on random inputs: valid compressed data of many
 *	  shapes, fed in random-sized pieces, and the same data damaged (bytes
 *	  changed, cut short, extended, rawsize wrong).
 *
 * Usage: decode_fuzz <cases> <seed>
 * Prints one summary line per format; exits 1 on any disagreement, that
 * is: outputs differ, or one accepts what the other rejects, except where
 * the stream decoder (rightly) reports corruption and liblz4 returns fewer
 * bytes than rawsize, or accepts the offset 0 the format forbids (it then
 * copies its own output buffer onto itself, whatever that held).
 *
 * Built and run by test/t/021_stream_decoders.pl; liblz4 is loaded with
 * dlopen so that no lz4 header is needed (without it, only pglz is
 * compared).
 */
#include "postgres_fe.h"

#include <dlfcn.h>

#include "common/pg_lzcompress.h"
#include "fingerprint/toast_decode.h"
#include "fuzz_common.h"

static int	(*lz4_compress) (const char *src, char *dst, int srcSize, int dstCapacity);
static int	(*lz4_decompress) (const char *src, char *dst, int srcSize, int dstCapacity);

/* Random input of one of several shapes. */
static int32
make_input(char *buf, int32 cap)
{
	static const char *words[] = {"the ", "simhash ", "of ", "a ", "document ", "文档",
		"指纹 ", "\n", ", ", "near-duplicate ", "zzzzzzzzzzzzzzzz", "Ω "};
	int32		len = rnd_below(4) == 0 ? rnd_below(64) : rnd_below(cap);
	int			shape = rnd_below(5);
	int32		i = 0;

	while (i < len)
	{
		switch (shape)
		{
			case 0:				/* random bytes */
				buf[i++] = (char) rnd();
				break;
			case 1:				/* small alphabet */
				buf[i++] = 'a' + rnd_below(4);
				break;
			case 2:				/* words */
				{
					const char *w = words[rnd_below(lengthof(words))];

					for (; *w && i < len; w++)
						buf[i++] = *w;
				}
				break;
			case 3:				/* long runs */
				{
					int32		n = rnd_below(70000);
					char		c = (char) rnd_below(3);

					for (; n > 0 && i < len; n--)
						buf[i++] = c;
				}
				break;
			default:			/* copies of earlier stretches, near and far */
				if (i > 16 && rnd_below(2))
				{
					int32		from = rnd_below(i);
					int32		n = rnd_below(300);

					for (; n > 0 && i < len; n--)
						buf[i++] = buf[from++];
				}
				else
					buf[i++] = 'A' + rnd_below(26);
				break;
		}
	}
	return len;
}

/* Input pieces and output collection of one decoding. */
typedef struct Feed
{
	const unsigned char *src;
	int32		srclen;
	int32		pos;
	int32		maxpiece;
	char	   *out;
	int64		outlen;
	int64		outcap;
	bool		overflow;
} Feed;

static bool
feed_refill(DecodeIO *io)
{
	Feed	   *f = io->arg;
	int32		n;

	if (f->pos >= f->srclen)
		return false;
	n = 1 + rnd_below(f->maxpiece);
	n = Min(n, f->srclen - f->pos);
	io->in = f->src + f->pos;
	io->inend = io->in + n;
	f->pos += n;
	return true;
}

static void
feed_emit(DecodeIO *io, const char *data, size_t len)
{
	Feed	   *f = io->arg;

	if (len == 0 || len > DECODE_WINDOW_BYTES || f->outlen + (int64) len > f->outcap)
	{
		f->overflow = true;
		return;
	}
	memcpy(f->out + f->outlen, data, len);
	f->outlen += len;
}

static const char *last_error;

/* Runs a stream decoder; returns the length decoded or -1. */
static int64
stream_decode(bool lz4, const char *src, int32 srclen, int64 rawsize,
			  char *out, int64 outcap, char *window)
{
	Feed		f = {(const unsigned char *) src, srclen, 0, 0, out, 0, outcap, false};
	DecodeIO	io;
	bool		ok;
	int			r = rnd_below(3);

	f.maxpiece = r == 0 ? 1 + rnd_below(8) : r == 1 ? 1 + rnd_below(5000) : 1 << 20;
	io.in = io.inend = NULL;
	io.refill = feed_refill;
	io.emit = feed_emit;
	io.arg = &f;
	io.window = window;
	/* the window the server gives this value, or the sliding one */
	io.windowsize = rnd_below(2) ? DecodeWindowBytes(rawsize) : DECODE_WINDOW_BYTES;
	memset(window + io.windowsize, 0xA5, DECODE_WINDOW_BYTES - io.windowsize);
	ok = lz4 ? Lz4DecodeStream(&io, rawsize) : PglzDecodeStream(&io, rawsize);
	for (int32 i = io.windowsize; i < DECODE_WINDOW_BYTES; i++)
		if ((unsigned char) window[i] != 0xA5)
		{
			fprintf(stderr, "write past the window\n");
			exit(2);
		}
	last_error = io.error;
	if (!ok && io.error == NULL)
	{
		fprintf(stderr, "corruption without a reason\n");
		exit(2);
	}
	if (f.overflow)
	{
		fprintf(stderr, "emit out of bounds\n");
		exit(2);
	}
	return ok ? f.outlen : -1;
}

static void
damage(char *c, int32 *clen, int32 cap, int32 *rawsize)
{
	int			how = rnd_below(6);

	if (how <= 2 && *clen > 0)
	{
		int			n = 1 + rnd_below(4);

		while (n-- > 0)
			c[rnd_below(*clen)] ^= (char) (1 + rnd_below(255));
	}
	else if (how == 3 && *clen > 0)
		*clen = rnd_below(*clen);
	else if (how == 4 && *clen + 8 < cap)
	{
		for (int i = 0; i < 8; i++)
			c[(*clen)++] = (char) rnd();
	}
	else
	{
		int32		r = *rawsize + (int32) rnd_below(41) - 20;

		*rawsize = Max(0, r);
	}
}

int
main(int argc, char **argv)
{
	int			cases = argc > 1 ? atoi(argv[1]) : 2000;
	const int32 cap = 300000;
	char	   *raw = malloc(cap + 64);
	char	   *comp = malloc(PGLZ_MAX_OUTPUT(cap) + cap / 200 + 1024);
	char	   *ref = malloc(cap + 64);
	char	   *out = malloc(cap + 64);
	char	   *window = malloc(DECODE_WINDOW_BYTES);
	void	   *lib = dlopen("liblz4.so.1", RTLD_NOW);
	int			failures = 0;

	rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	if (lib)
	{
		lz4_compress = dlsym(lib, "LZ4_compress_default");
		lz4_decompress = dlsym(lib, "LZ4_decompress_safe");
	}

	for (int fmt = 0; fmt < 2; fmt++)
	{
		bool		lz4 = fmt == 1;
		int			valid = 0,
					damaged_both_ok = 0,
					damaged_both_fail = 0,
					short_lz4 = 0,
					zero_offset_lz4 = 0;

		if (lz4 && (!lz4_compress || !lz4_decompress))
		{
			printf("lz4: not compared, liblz4.so.1 not found\n");
			continue;
		}

		for (int i = 0; i < cases; i++)
		{
			int32		rawsize = make_input(raw, cap);
			int32		clen;
			int32		rs;
			int64		got,
						want;

			if (lz4)
				clen = lz4_compress(raw, comp, rawsize, PGLZ_MAX_OUTPUT(cap) + cap / 200);
			else
				clen = pglz_compress(raw, rawsize, comp, PGLZ_strategy_always);
			if (clen < 0)
				continue;		/* pglz gave up: TOAST would store it plain */

			/* valid data decodes to the input */
			got = stream_decode(lz4, comp, clen, rawsize, out, cap, window);
			if (got != rawsize || memcmp(out, raw, rawsize) != 0)
			{
				printf("%s case %d: valid data (raw %d, compressed %d) decoded to %lld bytes%s\n",
					   lz4 ? "lz4" : "pglz", i, rawsize, clen, (long long) got,
					   got == rawsize ? " that differ" : "");
				failures++;
			}
			else
				valid++;

			/* damaged data: the same verdict and output as PostgreSQL's */
			rs = rawsize;
			damage(comp, &clen, PGLZ_MAX_OUTPUT(cap) + cap / 200, &rs);
			memset(ref, 0, rs);
			if (lz4)
				want = lz4_decompress(comp, ref, clen, rs);
			else
				want = pglz_decompress(comp, clen, ref, rs, true);
			got = stream_decode(lz4, comp, clen, rs, out, cap + 64, window);
			if (lz4 && want >= 0 && want < rs && got < 0)
			{
				short_lz4++;
				continue;
			}
			if (lz4 && want >= 0 && got < 0 && strcmp(last_error, "zero offset") == 0)
			{
				zero_offset_lz4++;
				continue;
			}
			if ((got < 0) != (want < 0) ||
				(got >= 0 && (got != want || memcmp(out, ref, got) != 0)))
			{
				printf("%s case %d: damaged data (raw %d, compressed %d): ours %lld, PostgreSQL's %lld\n",
					   lz4 ? "lz4" : "pglz", i, rs, clen, (long long) got, (long long) want);
				failures++;
			}
			else if (got >= 0)
				damaged_both_ok++;
			else
				damaged_both_fail++;
		}
		printf("%s: %d valid decoded alike; damaged: %d accepted alike, %d rejected alike",
			   lz4 ? "lz4" : "pglz", valid, damaged_both_ok, damaged_both_fail);
		if (lz4)
			printf("; we reject where liblz4 returns %d short outputs and accepts %d zero offsets",
				   short_lz4, zero_offset_lz4);
		printf("\n");
	}
	printf("%d disagreements\n", failures);
	free(raw);
	free(comp);
	free(ref);
	free(out);
	free(window);
	return failures ? 1 : 0;
}
