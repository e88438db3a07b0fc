// AVX2 steps shared by the blend kernels (lamina_kernels.c) and the solid-colour sweep
// (lamina_sweep.c): the coverage blend of eight pixels, and of one to eight masked, bit for
// bit scalar_composite (lamina_scalar.h). Private to CLaminaKernels; x86-64 only.
#ifndef LAMINA_AVX2_H
#define LAMINA_AVX2_H
#if defined(__x86_64__)
#include <immintrin.h>

// round(x / 255) per 16-bit lane for x ≤ 255 · 255: (t + (t >> 8)) >> 8 with t = x + 128 is
// the high half of t · 257 for t < 65280, one mulhi instead of a shift, an add and a shift.
__attribute__((target("avx2")))
static inline __m256i div255_avx2(__m256i x) {
    return _mm256_mulhi_epu16(_mm256_add_epi16(x, _mm256_set1_epi16(128)), _mm256_set1_epi16(257));
}

// The coverage blend of eight pixels `d` under `color16` (the colour's channels as 16-bit
// lanes, two pixels per 128 bits) through `m32` (0…255 per 32-bit lane): each 128-bit half
// is widened into two registers in place (pixels 0, 1 | 4, 5 and 2, 3 | 6, 7), so packing
// back puts every pixel where it was. The same arithmetic as the AVX-512 blend_step. Each
// pixel's coverage reaches its four channels by one byte shuffle per half (a multiply by
// 0x01010101, slow on most x86 cores, and an unpack did it before: the same values); the
// scaled colour's alpha is written as a byte shuffle too, which clang lowers to the two word
// shuffles it finds cheaper.
__attribute__((target("avx2")))
static inline __m256i coverage8_avx2(__m256i color16, __m256i m32, __m256i d) {
    const __m256i zero = _mm256_setzero_si256(), maximum = _mm256_set1_epi16(255);
    // Per 128 bits: pixels 0, 1 (and 2, 3) of the lane, byte 0 of each one's coverage into
    // the low byte of its four 16-bit channels (-1 selects zero).
    const __m256i spread_lo = _mm256_setr_epi8(0, -1, 0, -1, 0, -1, 0, -1, 4, -1, 4, -1, 4, -1, 4, -1,
                                               0, -1, 0, -1, 0, -1, 0, -1, 4, -1, 4, -1, 4, -1, 4, -1);
    const __m256i spread_hi = _mm256_setr_epi8(8, -1, 8, -1, 8, -1, 8, -1, 12, -1, 12, -1, 12, -1, 12, -1,
                                               8, -1, 8, -1, 8, -1, 8, -1, 12, -1, 12, -1, 12, -1, 12, -1);
    // Each pixel's alpha (16-bit channel 3) into its four channels.
    const __m256i alphas = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15,
                                            6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15);
    __m256i src_lo = div255_avx2(_mm256_mullo_epi16(color16, _mm256_shuffle_epi8(m32, spread_lo)));
    __m256i src_hi = div255_avx2(_mm256_mullo_epi16(color16, _mm256_shuffle_epi8(m32, spread_hi)));
    __m256i alpha_lo = _mm256_shuffle_epi8(src_lo, alphas), alpha_hi = _mm256_shuffle_epi8(src_hi, alphas);
    __m256i kept_lo = div255_avx2(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d, zero), _mm256_sub_epi16(maximum, alpha_lo)));
    __m256i kept_hi = div255_avx2(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d, zero), _mm256_sub_epi16(maximum, alpha_hi)));
    // Packed back to bytes before adding, so the sum wraps per pixel like the scalar blend.
    return _mm256_add_epi32(_mm256_packus_epi16(src_lo, src_hi), _mm256_packus_epi16(kept_lo, kept_hi));
}

// Lanes 0 ..< n of eight, as a mask for maskload and maskstore.
__attribute__((target("avx2")))
static inline __m256i first_lanes_avx2(size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// `n` (1…8) pixels of `dst` under `color16` through `m32` (0…255), the pixels after the
// first `n` untouched.
__attribute__((target("avx2")))
static inline void blend_step_avx2(__m256i color16, __m256i m32, uint32_t *dst, size_t n) {
    if (n == 8) {
        __m256i d = _mm256_loadu_si256((const __m256i *)dst);
        _mm256_storeu_si256((__m256i *)dst, coverage8_avx2(color16, m32, d));
    } else {
        __m256i lanes = first_lanes_avx2(n);
        __m256i d = _mm256_maskload_epi32((const int *)dst, lanes);
        _mm256_maskstore_epi32((int *)dst, lanes, coverage8_avx2(color16, m32, d));
    }
}

#endif
#endif
