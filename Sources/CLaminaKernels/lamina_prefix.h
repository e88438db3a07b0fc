// The sweep's vector prefix sum over fixed-point cells, shared by the float coverage kernel
// (lamina_coverage.c) and the solid-colour sweep (lamina_sweep.c). GCC/Clang vector
// extensions: SSE2 on x86-64, NEON on aarch64, no target attribute needed. Private to
// CLaminaKernels.
#ifndef LAMINA_PREFIX_H
#define LAMINA_PREFIX_H
#include "lamina_kernels.h"
#include <string.h>

typedef int32_t lamina_i4 __attribute__((vector_size(16)));
typedef uint32_t lamina_u4 __attribute__((vector_size(16)));

/* One running sum's min(|sum|, full), the magnitude taken as unsigned so even INT32_MIN is
 * defined (it clamps to full): the scalar twin of one lane of lamina_prefix4_nonzero. */
static inline uint32_t lamina_nonzero_clamped(uint32_t sum) {
    uint32_t magnitude = (int32_t)sum < 0 ? 0u - sum : sum;
    return magnitude < LAMINA_FULL_COVERAGE ? magnitude : LAMINA_FULL_COVERAGE;
}

/* Four cells' running sums on from `*carry` (every lane the sum so far), the cells cleared;
 * `*carry` becomes the fourth sum. Returns min(|sum|, full) per lane, the magnitude taken as
 * unsigned so even INT32_MIN is defined (it clamps to full). The sums wrap (unsigned lanes:
 * signed overflow is undefined in C), as the Swift side's &+ does. */
static inline lamina_u4 lamina_prefix4_nonzero(int32_t *cells, lamina_u4 *carry) {
    const lamina_u4 zero = {0, 0, 0, 0};
    const lamina_u4 full = {LAMINA_FULL_COVERAGE, LAMINA_FULL_COVERAGE, LAMINA_FULL_COVERAGE, LAMINA_FULL_COVERAGE};
    lamina_u4 x;
    memcpy(&x, cells, sizeof x);
    memcpy(cells, &zero, sizeof zero);
    x += __builtin_shufflevector(zero, x, 0, 4, 5, 6);     // [c0, c0+c1, c1+c2, c2+c3]
    x += __builtin_shufflevector(zero, x, 0, 1, 4, 5);     // prefix sums within the four
    x += *carry;
    *carry = __builtin_shufflevector(x, x, 3, 3, 3, 3);
    lamina_u4 negative = (lamina_u4)((lamina_i4)x < 0);    // all ones where the sum is negative
    lamina_u4 magnitude = (x ^ negative) - negative;
    lamina_u4 below = (lamina_u4)(magnitude < full);
    return (magnitude & below) | (full & ~below);
}
#endif
