// The one-pixel vector composite (NEON on aarch64) against the scalar composite step, bit for
// bit, built for aarch64 and run under qemu-user by scripts/aarch64-kernels: every coverage
// 1…255 for colours of every alpha (premultiplied, and some that are not, whose sums carry
// across channels) over a spread of targets. On x86-64 the Swift suite compares the sweep
// that uses it with the Swift sweep (DifferentialTests.solidSweepMatchesSwiftSweep).
#include "lamina_scalar.h"
#include <stdio.h>

int main(void) {
    unsigned seed = 7;
    long runs = 0, mismatches = 0;
    for (int round = 0; round < 96; round++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t alpha = round < 64 ? (uint32_t)round * 4 + 3 : seed >> 24;
        uint32_t color = seed;
        if (round % 3 != 2) {          // premultiplied: no channel above alpha
            uint32_t r = ((color >> 16) & 255) * alpha / 255, g = ((color >> 8) & 255) * alpha / 255;
            uint32_t b = (color & 255) * alpha / 255;
            color = alpha << 24 | r << 16 | g << 8 | b;
        }
        for (uint32_t m = 1; m <= 255; m++) {
            for (int t = 0; t < 64; t++, runs++) {
                seed = seed * 1103515245u + 12345u;
                uint32_t target = t == 0 ? 0 : t == 1 ? 0xFFFFFFFFu : seed ^ (seed << 13);
                uint32_t vector = target, scalar = target;
                pixel_composite(color, m, &vector);
                scalar_composite(color, m, &scalar);
                if (vector != scalar) {
                    if (mismatches++ < 10)
                        fprintf(stderr, "colour %08x, coverage %u over %08x: vector %08x, scalar %08x\n", color, m,
                                target, vector, scalar);
                }
            }
        }
    }
    printf("%ld composites, %ld mismatches\n", runs, mismatches);
    return mismatches != 0;
}
