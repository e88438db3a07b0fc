// The scalar compositing steps the vector kernels are held to, bit for bit (LaminaRaster's
// Blend.scale, Blend.over and Blend.composite): premultiplied 0xAARRGGBB, 8-bit fixed point;
// and the composite step again with a pixel's channels as the lanes of one small vector.
// Private to CLaminaKernels.
#ifndef LAMINA_SCALAR_H
#define LAMINA_SCALAR_H
#include <stdint.h>
#include <string.h>

/* x / 255 rounded, for two 16-bit lanes packed in one word: (t + (t >> 8)) >> 8, t = x + 128. */
static inline uint32_t scalar_div255_lanes(uint32_t x) {
    uint32_t t = x + 0x00800080u;
    return ((t + ((t >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
}

/* Every channel of `p` times m / 255 (m in 0…255), rounded. */
static inline uint32_t scalar_scale(uint32_t p, uint32_t m) {
    return scalar_div255_lanes((p & 0x00FF00FFu) * m) | scalar_div255_lanes(((p >> 8) & 0x00FF00FFu) * m) << 8;
}

/* `src` over `dst`; the sum wraps per pixel as Swift's &+ does. */
static inline uint32_t scalar_over(uint32_t src, uint32_t dst) {
    return src + scalar_scale(dst, 255 - (src >> 24));
}

/* `src` through coverage m (1…255) over *p; an opaque source at full coverage replaces it. */
static inline void scalar_composite(uint32_t src, uint32_t m, uint32_t *p) {
    if (m >= 255) *p = src >> 24 == 255 ? src : scalar_over(src, *p);
    else *p = scalar_over(scalar_scale(src, m), *p);
}

typedef uint8_t lamina_pixel_bytes __attribute__((vector_size(4)));
typedef uint16_t lamina_pixel_lanes __attribute__((vector_size(8)));

/* scalar_composite (m in 1…255) with the pixel's four channels as 16-bit lanes of one vector
 * (GCC/Clang vector extensions: SSE2 on x86-64, NEON on aarch64): each product and its /255
 * once for all four channels, where the scalar step does each twice over two lanes of a word.
 * The same pixel for every input (Tests/aarch64/composite_twins.c, the sweep's differential). */
static inline void pixel_composite(uint32_t src, uint32_t m, uint32_t *p) {
    if (m >= 255 && src >> 24 == 255) {                // an opaque source at full coverage
        *p = src;
        return;
    }
    const lamina_pixel_lanes half = {128, 128, 128, 128}, full = {255, 255, 255, 255};
    lamina_pixel_bytes source_bytes, target_bytes;
    memcpy(&source_bytes, &src, sizeof src);
    memcpy(&target_bytes, p, sizeof *p);
    lamina_pixel_lanes source = __builtin_convertvector(source_bytes, lamina_pixel_lanes);
    lamina_pixel_lanes target = __builtin_convertvector(target_bytes, lamina_pixel_lanes);
    // round(x / 255) as (t + (t >> 8)) >> 8, t = x + 128: no lane passes 16 bits (x ≤ 255 · 255).
    lamina_pixel_lanes t = source * (uint16_t)m + half;
    lamina_pixel_lanes scaled = (t + (t >> 8)) >> 8;
    t = target * (full - __builtin_shufflevector(scaled, scaled, 3, 3, 3, 3)) + half;
    lamina_pixel_lanes kept = (t + (t >> 8)) >> 8;
    // Back to bytes before adding, so the sum wraps per pixel as the scalar step's does.
    lamina_pixel_bytes scaled_bytes = __builtin_convertvector(scaled, lamina_pixel_bytes);
    lamina_pixel_bytes kept_bytes = __builtin_convertvector(kept, lamina_pixel_bytes);
    uint32_t a, b;
    memcpy(&a, &scaled_bytes, sizeof a);
    memcpy(&b, &kept_bytes, sizeof b);
    *p = a + b;
}
#endif
