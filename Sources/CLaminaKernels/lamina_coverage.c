// The sweep's prefix sum: accumulated fixed-point cells into non-zero coverage, four cells
// per step with GCC/Clang vector extensions (SSE2 on x86-64, NEON on aarch64, no target
// attribute needed), and its scalar twin. Integer sums do not depend on their order, so the
// two match bit for bit.
#include "lamina_kernels.h"
#include "lamina_prefix.h"
#include <stdlib.h>
#include <string.h>

typedef float lamina_f4 __attribute__((vector_size(16)));

int lamina_kernels_requested_level(void) {
    static int cached = -1;
    if (cached < 0) {
        const char *choice = getenv("LAMINA_KERNELS");
        cached = choice && strcmp(choice, "scalar") == 0 ? 0 : choice && strcmp(choice, "avx2") == 0 ? 1 : 2;
    }
    return cached;
}

int lamina_kernels_allow_simd(void) { return lamina_kernels_requested_level() > 0; }

/* min(|sum|, full) scaled to 0…1, as LaminaRaster's NonZeroRule on fixed-point cells. */
static inline float fixed_nonzero(uint32_t sum) {
    return (float)(int32_t)lamina_nonzero_clamped(sum) * (1.0f / LAMINA_FULL_COVERAGE);
}

/* The sums wrap (unsigned vectors: signed overflow is undefined in C), as the Swift side's
 * &+ does: a winding beyond ±16383 in one pixel reads wrong, nothing traps. */
int32_t lamina_coverage_fixed_nonzero_vector(int32_t *cells, float *coverage, size_t count, int32_t acc) {
    const lamina_f4 scale = {1.0f / LAMINA_FULL_COVERAGE, 1.0f / LAMINA_FULL_COVERAGE,
                             1.0f / LAMINA_FULL_COVERAGE, 1.0f / LAMINA_FULL_COVERAGE};
    uint32_t start = (uint32_t)acc;
    lamina_u4 carry = {start, start, start, start};
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        lamina_u4 clamped = lamina_prefix4_nonzero(cells + i, &carry);
        lamina_f4 c = __builtin_convertvector((lamina_i4)clamped, lamina_f4) * scale;
        memcpy(coverage + i, &c, sizeof c);
    }
    uint32_t sum = carry[0];
    for (; i < count; i++) {
        sum += (uint32_t)cells[i];
        cells[i] = 0;
        coverage[i] = fixed_nonzero(sum);
    }
    return (int32_t)sum;
}

int32_t lamina_coverage_fixed_nonzero_scalar(int32_t *cells, float *coverage, size_t count, int32_t acc) {
    uint32_t sum = (uint32_t)acc;
    for (size_t i = 0; i < count; i++) {
        sum += (uint32_t)cells[i];
        cells[i] = 0;
        coverage[i] = fixed_nonzero(sum);
    }
    return (int32_t)sum;
}
