/*
 * test/fuzz/avx512emu/immintrin.h
 *	  Stands in for the compiler's <immintrin.h> when tokenizer_avx512.c is
 *	  compiled with its AVX-512 instructions emulated in portable C
 *	  (tokenizer_avx512_emulated.c, with -Itest/fuzz/avx512emu before the
 *	  system headers): SIMDe's implementations under the intrinsics' own
 *	  names, the few SIMDe 0.7.4 lacks (avx512_missing.h), and no target
 *	  attribute (AVX512_TARGET empty), so that the kernel runs on any
 *	  x86-64 CPU.  Test-only: the extension never includes it.
 *
 * Compile without -mavx or -march: SIMDe then includes only <emmintrin.h>
 * (SSE2, the x86-64 baseline, which the kernels' shared headers use
 * natively); with AVX enabled it would include the real <immintrin.h>,
 * whose vector types clash with SIMDe's aliases.
 */
#ifndef AVX512EMU_IMMINTRIN_H
#define AVX512EMU_IMMINTRIN_H

#if defined(__AVX__)
#error "compile the emulated AVX-512 kernel without -mavx (see this file)"
#endif

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

/* mask types: SIMDe aliases none of them */
typedef simde__mmask8 __mmask8;
typedef simde__mmask16 __mmask16;
typedef simde__mmask32 __mmask32;
typedef simde__mmask64 __mmask64;

#include "avx512_missing.h"

/*
 * The AVX-512 code gets no target attribute (tokenizer_avx512.c,
 * weights.c), and weights.c takes its AVX-512 path as on a CPU with
 * AVX-512F.
 */
#define AVX512_TARGET
#define AVX512F_TARGET
#define CPU_HAS_AVX512F() 1

#endif							/* AVX512EMU_IMMINTRIN_H */
