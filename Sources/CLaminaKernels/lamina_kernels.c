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


#else
// Other architectures: no AVX2, so callers never dispatch here; the scalar loops keep the
// functions correct all the same.
int lamina_kernels_have_avx2(void) { return 0; }
void lamina_blend_run_avx2(uint32_t src, uint32_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) row[i] = scalar_over(src, row[i]);
}
#endif
