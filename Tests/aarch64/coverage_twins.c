// The portable vector prefix sum (NEON on aarch64) against its scalar twin, bit for bit,
// built for aarch64 and run under qemu-user by scripts/aarch64-kernels. The Swift suite runs
// the same comparison on x86-64 (DifferentialTests.prefixSumTwins).
#include "lamina_kernels.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    float cells[41], twin[41], vector[41], scalar[41];
    unsigned seed = 1;
    int mismatches = 0, runs = 0;
    for (int count = 0; count <= 41; count++) {
        for (int round = 0; round < 200; round++, runs++) {
            for (int i = 0; i < count; i++) {
                seed = seed * 1103515245u + 12345u;
                int pick = (int)(seed >> 8) % 2001;
                cells[i] = round % 50 == 7 && i == count / 2 ? NAN : (pick - 1000) / 500.0f;
                if (round % 9 == 3) cells[i] *= 1e5f;
                twin[i] = cells[i];
            }
            float start = (round % 5 - 2) * 0.375f;
            float a = lamina_coverage_nonzero_vector(cells, vector, (size_t)count, start);
            float b = lamina_coverage_nonzero_scalar(twin, scalar, (size_t)count, start);
            int same = memcmp(vector, scalar, sizeof(float) * (size_t)count) == 0
                && (memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)));
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
