// The sweep's prefix sum: accumulated cells into non-zero coverage, four cells per step
// with GCC/Clang vector extensions (SSE2 on x86-64, NEON on aarch64, no target attribute
// needed), and its scalar twin, which adds in the same order and so matches bit for bit.
#include "lamina_kernels.h"
#include <stdlib.h>
#include <string.h>

typedef float lamina_f4 __attribute__((vector_size(16)));
typedef int lamina_i4 __attribute__((vector_size(16)));

int lamina_kernels_requested_level(void) {
    static int cached = -1;
    if (cached < 0) {
        const char *choice = getenv("LAMINA_KERNELS");
        cached = choice && strcmp(choice, "scalar") == 0 ? 0 : choice && strcmp(choice, "avx2") == 0 ? 1 : 2;
    }
    return cached;
}

int lamina_kernels_allow_simd(void) { return lamina_kernels_requested_level() > 0; }

/* min(|a|, 1) as LaminaRaster's NonZeroRule: NaN stays NaN. */
static inline float nonzero(float a) {
    float m = a < 0 ? -a : a;
    return m > 1.0f ? 1.0f : m;
}

float lamina_coverage_nonzero_vector(float *cells, float *coverage, size_t count, float acc) {
    const lamina_f4 zero = {0, 0, 0, 0}, one = {1, 1, 1, 1};
    const lamina_i4 magnitude = {0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF};
    lamina_f4 carry = {acc, acc, acc, acc};
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        lamina_f4 x;
        memcpy(&x, cells + i, sizeof x);
        memcpy(cells + i, &zero, sizeof zero);
        x += __builtin_shufflevector(zero, x, 0, 4, 5, 6);     // [c0, c0+c1, c1+c2, c2+c3]
        x += __builtin_shufflevector(zero, x, 0, 1, 4, 5);     // prefix sums within the four
        x += carry;
        carry = __builtin_shufflevector(x, x, 3, 3, 3, 3);
        lamina_f4 m = (lamina_f4)((lamina_i4)x & magnitude);
        lamina_i4 above = m > one;                             // false for NaN: NaN stays
        lamina_f4 c = (lamina_f4)(((lamina_i4)one & above) | ((lamina_i4)m & ~above));
        memcpy(coverage + i, &c, sizeof c);
    }
    acc = carry[0];
    for (; i < count; i++) {
        acc += cells[i];
        cells[i] = 0;
        coverage[i] = nonzero(acc);
    }
    return acc;
}

float lamina_coverage_nonzero_scalar(float *cells, float *coverage, size_t count, float acc) {
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        float c0 = cells[i], c1 = cells[i + 1], c2 = cells[i + 2], c3 = cells[i + 3];
        cells[i] = cells[i + 1] = cells[i + 2] = cells[i + 3] = 0;
        // The vector kernel's order: pairs first, then the pairs' sums, then the carry.
        float t0 = c0 + 0.0f, t1 = c1 + c0, t2 = c2 + c1, t3 = c3 + c2;
        float s0 = t0 + 0.0f, s1 = t1 + 0.0f, s2 = t2 + t0, s3 = t3 + t1;
        float r0 = s0 + acc, r1 = s1 + acc, r2 = s2 + acc, r3 = s3 + acc;
        coverage[i] = nonzero(r0);
        coverage[i + 1] = nonzero(r1);
        coverage[i + 2] = nonzero(r2);
        coverage[i + 3] = nonzero(r3);
        acc = r3;
    }
    for (; i < count; i++) {
        acc += cells[i];
        cells[i] = 0;
        coverage[i] = nonzero(acc);
    }
    return acc;
}
