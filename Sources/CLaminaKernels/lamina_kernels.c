#include "lamina_kernels.h"

static inline uint32_t scalar_over(uint32_t src, uint32_t dst) {
    uint32_t inv = 255 - (src >> 24);
    uint32_t rb = (dst & 0x00FF00FF) * inv + 0x00800080;
    rb = ((rb + ((rb >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF;
    uint32_t ag = ((dst >> 8) & 0x00FF00FF) * inv + 0x00800080;
    ag = ((ag + ((ag >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF;
    return src + (rb | (ag << 8));
}

#if defined(__x86_64__)
#include <immintrin.h>

int lamina_kernels_have_avx512(void) {
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx512bw") ? 1 : 0;
    }
    return cached;
}

int lamina_kernels_have_avx2(void) {
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return cached;
}

__attribute__((target("avx2")))
void lamina_blend_run_avx2(uint32_t src, uint32_t *row, size_t count) {
    const __m256i inverse = _mm256_set1_epi16((short)(255 - (src >> 24)));
    const __m256i low = _mm256_set1_epi16(0x00FF);
    const __m256i half = _mm256_set1_epi16(128);
    const __m256i source = _mm256_set1_epi32((int)src);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i d = _mm256_loadu_si256((const __m256i *)(row + i));
        __m256i br = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(d, low), inverse), half);
        __m256i ga = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(d, 8), inverse), half);
        br = _mm256_srli_epi16(_mm256_add_epi16(br, _mm256_srli_epi16(br, 8)), 8);
        ga = _mm256_srli_epi16(_mm256_add_epi16(ga, _mm256_srli_epi16(ga, 8)), 8);
        __m256i scaled = _mm256_or_si256(br, _mm256_slli_epi16(ga, 8));
        _mm256_storeu_si256((__m256i *)(row + i), _mm256_add_epi32(scaled, source));
    }
    for (; i < count; i++) row[i] = scalar_over(src, row[i]);
}

// (t + (t >> 8)) >> 8 for t < 65280 equals the high half of t · 257, so each lane's divide
// is one mulhi instead of a shift and an add and a shift.
__attribute__((target("avx512f,avx512bw")))
void lamina_blend_run_avx512(uint32_t src, uint32_t *row, size_t count) {
    const __m512i inverse = _mm512_set1_epi16((short)(255 - (src >> 24)));
    const __m512i low = _mm512_set1_epi16(0x00FF);
    const __m512i half = _mm512_set1_epi16(128);
    const __m512i by257 = _mm512_set1_epi16(257);
    const __m512i source = _mm512_set1_epi32((int)src);
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i d = _mm512_loadu_si512((const void *)(row + i));
        __m512i br = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(d, low), inverse), half);
        __m512i ga = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(d, 8), inverse), half);
        br = _mm512_mulhi_epu16(br, by257);
        ga = _mm512_mulhi_epu16(ga, by257);
        __m512i scaled = _mm512_or_si512(br, _mm512_slli_epi16(ga, 8));
        _mm512_storeu_si512((void *)(row + i), _mm512_add_epi32(scaled, source));
    }
    if (i < count) {
        __mmask16 tail = (__mmask16)((1u << (count - i)) - 1);
        __m512i d = _mm512_maskz_loadu_epi32(tail, row + i);
        __m512i br = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_and_si512(d, low), inverse), half);
        __m512i ga = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(d, 8), inverse), half);
        br = _mm512_mulhi_epu16(br, by257);
        ga = _mm512_mulhi_epu16(ga, by257);
        __m512i scaled = _mm512_or_si512(br, _mm512_slli_epi16(ga, 8));
        _mm512_mask_storeu_epi32(row + i, tail, _mm512_add_epi32(scaled, source));
    }
}

#else
// Other architectures: no AVX2, so callers never dispatch here; the scalar loops keep the
// functions correct all the same.
int lamina_kernels_have_avx512(void) {
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx512bw") ? 1 : 0;
    }
    return cached;
}

int lamina_kernels_have_avx2(void) { return 0; }
int lamina_kernels_have_avx512(void) { return 0; }
void lamina_blend_run_avx512(uint32_t src, uint32_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) row[i] = scalar_over(src, row[i]);
}
void lamina_blend_run_avx2(uint32_t src, uint32_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) row[i] = scalar_over(src, row[i]);
}
#endif
