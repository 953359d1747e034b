/*
 * test/fuzz/avx512emu/avx512_missing.h
 *	  Portable C for the intrinsics of tokenizer_avx512.c that SIMDe 0.7.4
 *	  lacks, with the semantics of Intel's Intrinsics Guide: each is defined
 *	  only where SIMDe defines no alias of that name (a newer SIMDe's then
 *	  wins).  Masked loads read, and masked stores and gathers touch, only
 *	  the selected elements, as the hardware suppresses the faults of the
 *	  others: the kernel relies on that at the end of a span, and the test
 *	  places spans next to unreadable pages, so an emulation that read more
 *	  would crash there.  Vectors go through byte arrays (memcpy), not
 *	  SIMDe's internal unions.  Included by immintrin.h here, after SIMDe.
 */
#ifndef AVX512EMU_MISSING_H
#define AVX512EMU_MISSING_H

#include <stdint.h>
#include <string.h>

/* BMI2 pext: the bits of a at the set bits of mask, packed from bit 0 up. */
#ifndef _pext_u64
static inline uint64_t
emu_pext_u64(uint64_t a, uint64_t mask)
{
	uint64_t	r = 0;
	int			k = 0;

	for (; mask; mask &= mask - 1, k++)
		if (a & mask & -mask)
			r |= (uint64_t) 1 << k;
	return r;
}
#define _pext_u64(a, mask) emu_pext_u64(a, mask)
#endif

/* AVX512VL: the 32-bit elements j of p with bit j of k set, others 0. */
#ifndef _mm256_maskz_loadu_epi32
static inline simde__m256i
emu_mm256_maskz_loadu_epi32(simde__mmask8 k, const void *p)
{
	int32_t		e[8] = {0};
	simde__m256i r;

	for (int j = 0; j < 8; j++)
		if ((k >> j) & 1)
			memcpy(&e[j], (const char *) p + 4 * j, 4);
	memcpy(&r, e, sizeof(r));
	return r;
}
#define _mm256_maskz_loadu_epi32(k, p) emu_mm256_maskz_loadu_epi32(k, p)
#endif

/* AVX512BW: the bytes j of p with bit j of k set, others 0. */
#ifndef _mm512_maskz_loadu_epi8
static inline simde__m512i
emu_mm512_maskz_loadu_epi8(simde__mmask64 k, const void *p)
{
	uint8_t		e[64] = {0};
	simde__m512i r;

	for (int j = 0; j < 64; j++)
		if ((k >> j) & 1)
			e[j] = ((const uint8_t *) p)[j];
	memcpy(&r, e, sizeof(r));
	return r;
}
#define _mm512_maskz_loadu_epi8(k, p) emu_mm512_maskz_loadu_epi8(k, p)
#endif

/* AVX512F/BW: writes the elements j of a with bit j of k set to p. */
#define EMU_MASK_STOREU(name, mtype, etype, n) \
static inline void \
name(void *p, mtype k, simde__m512i a) \
{ \
	etype		e[n]; \
\
	memcpy(e, &a, sizeof(e)); \
	for (int j = 0; j < (n); j++) \
		if ((k >> j) & 1) \
			memcpy((char *) p + j * sizeof(etype), &e[j], sizeof(etype)); \
}
#ifndef _mm512_mask_storeu_epi8
EMU_MASK_STOREU(emu_mm512_mask_storeu_epi8, simde__mmask64, uint8_t, 64)
#define _mm512_mask_storeu_epi8(p, k, a) emu_mm512_mask_storeu_epi8(p, k, a)
#endif
#ifndef _mm512_mask_storeu_epi32
EMU_MASK_STOREU(emu_mm512_mask_storeu_epi32, simde__mmask16, uint32_t, 16)
#define _mm512_mask_storeu_epi32(p, k, a) emu_mm512_mask_storeu_epi32(p, k, a)
#endif
#ifndef _mm512_mask_storeu_epi64
EMU_MASK_STOREU(emu_mm512_mask_storeu_epi64, simde__mmask8, uint64_t, 8)
#define _mm512_mask_storeu_epi64(p, k, a) emu_mm512_mask_storeu_epi64(p, k, a)
#endif

/*
 * The widening conversions: the n elements of type tin in a (of vector
 * type vin), each converted to tout (sign- or zero-extended as tin is
 * signed or not), in order, in a vector of 512 bits.
 */
#define EMU_WIDEN(name, vin, tin, tout, n) \
static inline simde__m512i \
name(vin a) \
{ \
	tin			in[n]; \
	tout		out[n]; \
	simde__m512i r; \
\
	memcpy(in, &a, sizeof(in)); \
	for (int j = 0; j < n; j++) \
		out[j] = in[j]; \
	memcpy(&r, out, sizeof(r)); \
	return r; \
}

/* AVX512F: 8 signed 32-bit elements, sign-extended to 64 bits. */
#ifndef _mm512_cvtepi32_epi64
EMU_WIDEN(emu_mm512_cvtepi32_epi64, simde__m256i, int32_t, int64_t, 8)
#define _mm512_cvtepi32_epi64(a) emu_mm512_cvtepi32_epi64(a)
#endif

/* AVX512F: 8 unsigned 32-bit elements, zero-extended to 64 bits. */
#ifndef _mm512_cvtepu32_epi64
EMU_WIDEN(emu_mm512_cvtepu32_epi64, simde__m256i, uint32_t, uint64_t, 8)
#define _mm512_cvtepu32_epi64(a) emu_mm512_cvtepu32_epi64(a)
#endif

/* AVX512F: 16 unsigned bytes, zero-extended to 32 bits. */
#ifndef _mm512_cvtepu8_epi32
EMU_WIDEN(emu_mm512_cvtepu8_epi32, simde__m128i, uint8_t, uint32_t, 16)
#define _mm512_cvtepu8_epi32(a) emu_mm512_cvtepu8_epi32(a)
#endif

/* AVX512BW: the 32 bytes of a zero-extended to 16-bit elements, in order. */
#ifndef _mm512_cvtepu8_epi16
EMU_WIDEN(emu_mm512_cvtepu8_epi16, simde__m256i, uint8_t, uint16_t, 32)
#define _mm512_cvtepu8_epi16(a) emu_mm512_cvtepu8_epi16(a)
#endif

/*
 * AVX512F: lane j is the 8 bytes at base + sign-extended vindex[j] *
 * scale where bit j of k is set, else src's lane j.
 */
#ifndef _mm512_mask_i32gather_epi64
static inline simde__m512i
emu_mm512_mask_i32gather_epi64(simde__m512i src, simde__mmask8 k, simde__m256i vindex,
							   const void *base, int scale)
{
	int32_t		idx[8];
	int64_t		out[8];
	simde__m512i r;

	memcpy(idx, &vindex, sizeof(idx));
	memcpy(out, &src, sizeof(out));
	for (int j = 0; j < 8; j++)
		if ((k >> j) & 1)
			memcpy(&out[j], (const char *) base + (int64_t) idx[j] * scale, 8);
	memcpy(&r, out, sizeof(r));
	return r;
}
#define _mm512_mask_i32gather_epi64(src, k, vindex, base, scale) \
	emu_mm512_mask_i32gather_epi64(src, k, vindex, base, scale)
#endif

/*
 * AVX512_VBMI2: the bytes j of a with bit j of k set, in order, packed
 * into the low bytes; the rest 0.
 */
#ifndef _mm512_maskz_compress_epi8
static inline simde__m512i
emu_mm512_maskz_compress_epi8(simde__mmask64 k, simde__m512i a)
{
	uint8_t		in[64],
				out[64] = {0};
	int			n = 0;
	simde__m512i r;

	memcpy(in, &a, sizeof(in));
	for (int j = 0; j < 64; j++)
		if ((k >> j) & 1)
			out[n++] = in[j];
	memcpy(&r, out, sizeof(r));
	return r;
}
#define _mm512_maskz_compress_epi8(k, a) emu_mm512_maskz_compress_epi8(k, a)
#endif

#endif							/* AVX512EMU_MISSING_H */
