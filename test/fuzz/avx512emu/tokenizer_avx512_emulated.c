/*
 * test/fuzz/avx512emu/tokenizer_avx512_emulated.c
 *	  src/fingerprint/tokenizer_avx512.c, as it is, with its AVX-512
 *	  instructions emulated in portable C: compiled with
 *	  -Itest/fuzz/avx512emu (and no -mavx), its <immintrin.h> is this
 *	  folder's (SIMDe and avx512_missing.h).  Defines
 *	  SegmentAsciiAvx512Emulated, the kernel SegmentAsciiAvx512 on any
 *	  x86-64 CPU, for test/fuzz/tokenizer_kernels.c (built with
 *	  -DHAVE_AVX512_EMULATED by test/t/022_tokenizer_kernels.pl).
 */
#define SegmentAsciiAvx512 SegmentAsciiAvx512Emulated
#include "fingerprint/tokenizer_avx512.c"
