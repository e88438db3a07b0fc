// The scalar compositing steps the vector kernels are held to, bit for bit (LaminaRaster's
// Blend.scale, Blend.over and Blend.composite): premultiplied 0xAARRGGBB, 8-bit fixed point.
// Private to CLaminaKernels.
#ifndef LAMINA_SCALAR_H
#define LAMINA_SCALAR_H
#include <stdint.h>

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
#endif
