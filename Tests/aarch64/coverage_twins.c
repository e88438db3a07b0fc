// The portable vector prefix sum over fixed-point cells (NEON on aarch64) against its scalar
// twin, bit for bit, built for aarch64 and run under qemu-user by scripts/aarch64-kernels. The
// Swift suite runs the same comparison on x86-64 (DifferentialTests.prefixSumTwins).
#include "lamina_kernels.h"
#include <stdio.h>
#include <string.h>

int main(void) {
    int32_t cells[41], twin[41];
    float vector[41], scalar[41];
    unsigned seed = 1;
    int mismatches = 0, runs = 0;
    for (int count = 0; count <= 41; count++) {
        for (int round = 0; round < 200; round++, runs++) {
            for (int i = 0; i < count; i++) {
                seed = seed * 1103515245u + 12345u;
                int32_t pick = (int32_t)((seed >> 8) % 262145u) - 131072;     // within ±full
                // Now and then a value far out, so the sums wrap.
                cells[i] = round % 9 == 3 ? (int32_t)(seed * 2654435761u) : pick;
                twin[i] = cells[i];
            }
            int32_t start = (round % 5 - 2) * 98304;
            int32_t a = lamina_coverage_fixed_nonzero_vector(cells, vector, (size_t)count, start);
            int32_t b = lamina_coverage_fixed_nonzero_scalar(twin, scalar, (size_t)count, start);
            int same = memcmp(vector, scalar, sizeof(float) * (size_t)count) == 0 && a == b;
            for (int i = 0; i < count; i++) same = same && cells[i] == 0 && twin[i] == 0;
            if (!same) {
                mismatches++;
                fprintf(stderr, "count %d, round %d: the vector and scalar prefix sums differ\n", count, round);
            }
        }
    }
    printf("%d runs, %d mismatches\n", runs, mismatches);
    return mismatches != 0;
}
