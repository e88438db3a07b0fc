#include "lamina_kernels.h"
#include "lamina_scalar.h"
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include "lamina_avx2.h"

/* The widest kernels LAMINA_KERNELS allows (lamina_kernels_requested_level). */
static int allowed_level(void) { return lamina_kernels_requested_level(); }

int lamina_kernels_have_avx512(void) {
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = allowed_level() >= 2 && __builtin_cpu_supports("avx512bw") ? 1 : 0;
    }
    return cached;
}

int lamina_kernels_have_avx2(void) {
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = allowed_level() >= 1 && __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return cached;
}

// Eight pixels with a constant inverse alpha: d · inverse / 255 per channel, plus `source`.
__attribute__((target("avx2")))
static inline __m256i over8_avx2(__m256i d, __m256i inverse, __m256i source) {
    const __m256i low = _mm256_set1_epi16(0x00FF);
    __m256i br = div255_avx2(_mm256_mullo_epi16(_mm256_and_si256(d, low), inverse));
    __m256i ga = div255_avx2(_mm256_mullo_epi16(_mm256_srli_epi16(d, 8), inverse));
    return _mm256_add_epi32(_mm256_or_si256(br, _mm256_slli_epi16(ga, 8)), source);
}

__attribute__((target("avx2")))
void lamina_blend_run_avx2(uint32_t src, uint32_t *row, size_t count) {
    const __m256i inverse = _mm256_set1_epi16((short)(255 - (src >> 24)));
    const __m256i source = _mm256_set1_epi32((int)src);
    size_t i = 0;
    // Two vectors a step: their multiplies overlap.
    for (; i + 16 <= count; i += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(row + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(row + i + 8));
        _mm256_storeu_si256((__m256i *)(row + i), over8_avx2(a, inverse, source));
        _mm256_storeu_si256((__m256i *)(row + i + 8), over8_avx2(b, inverse, source));
    }
    if (i + 8 <= count) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(row + i));
        _mm256_storeu_si256((__m256i *)(row + i), over8_avx2(a, inverse, source));
        i += 8;
    }
    if (i < count) {
        // The last one to seven pixels as one masked step, not a scalar loop (a shape's
        // inside ends anywhere: W2's circles spent a third of this kernel here).
        const __m256i lanes = first_lanes_avx2(count - i);
        __m256i a = _mm256_maskload_epi32((const int *)(row + i), lanes);
        _mm256_maskstore_epi32((int *)(row + i), lanes, over8_avx2(a, inverse, source));
    }
}

__attribute__((target("avx2")))
void lamina_blend_coverage_avx2(uint32_t color, const float *coverage, uint32_t *dst, size_t count) {
    const __m256i color16 = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)color), _mm256_setzero_si256());
    const __m256 scale = _mm256_set1_ps(255.0f), half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps();
    for (size_t i = 0; i < count; i += 8) {
        size_t n = count - i < 8 ? count - i : 8;
        __m256 c = n == 8 ? _mm256_loadu_ps(coverage + i) : _mm256_maskload_ps(coverage + i, first_lanes_avx2(n));
        // m = c · 255 + ½ truncated, as two separate roundings (no fused multiply-add); zero
        // where c is not above zero (NaN included).
        __m256i m = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(c, scale), half));
        m = _mm256_and_si256(m, _mm256_castps_si256(_mm256_cmp_ps(c, zero, _CMP_GT_OQ)));
        // Above 255 (coverage a little over 1) counts as 255, as the scalar composite takes it.
        blend_step_avx2(color16, _mm256_min_epu32(m, _mm256_set1_epi32(255)), dst + i, n);
    }
}

__attribute__((target("avx2")))
void lamina_blend_mask_rows_avx2(uint32_t color, const uint8_t *coverage, size_t coverage_stride, uint32_t *dst,
                                 size_t dst_stride, size_t count, size_t rows) {
    const __m256i color16 = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)color), _mm256_setzero_si256());
    for (size_t row = 0; row < rows; row++, coverage += coverage_stride, dst += dst_stride) {
        size_t i = 0;
        for (; i + 8 <= count; i += 8) {
            __m128i bytes = _mm_loadl_epi64((const __m128i *)(coverage + i));
            if (_mm_cvtsi128_si64(bytes) == 0) continue;    // a shadow's or glyph's empty stretch
            blend_step_avx2(color16, _mm256_cvtepu8_epi32(bytes), dst + i, 8);
        }
        if (i < count) {
            uint8_t tail[8] = {0};
            memcpy(tail, coverage + i, count - i);          // no read past the row
            blend_step_avx2(color16, _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)tail)), dst + i, count - i);
        }
    }
}

// a · (256 − w) / 256 + b · w / 256 per 16-bit channel, floored (exact in 16 bits: the true
// sum is at most 255 · 256).
__attribute__((target("avx2")))
static inline __m256i lerp16_avx2(__m256i a, __m256i b, __m256i w) {
    __m256i sum = _mm256_add_epi16(_mm256_mullo_epi16(a, _mm256_sub_epi16(_mm256_set1_epi16(256), w)),
                                   _mm256_mullo_epi16(b, w));
    return _mm256_srli_epi16(sum, 8);
}

// The bilinear sample of eight pixels' four texels as two registers of 16-bit channels, each
// 128-bit half widened in place (pixels 0, 1 | 4, 5 in `lo`, 2, 3 | 6, 7 in `hi`), with the
// 8-bit fractions `wx` and `wy` (0…255 per 32-bit lane).
__attribute__((target("avx2")))
static inline void bilinear8_avx2(__m256i a, __m256i b, __m256i c, __m256i d, __m256i wx, __m256i wy,
                                  __m256i *lo, __m256i *hi) {
    const __m256i zero = _mm256_setzero_si256(), spread = _mm256_set1_epi32(0x01010101);
    __m256i x8 = _mm256_mullo_epi32(wx, spread), y8 = _mm256_mullo_epi32(wy, spread);
    __m256i x_lo = _mm256_unpacklo_epi8(x8, zero), x_hi = _mm256_unpackhi_epi8(x8, zero);
    __m256i y_lo = _mm256_unpacklo_epi8(y8, zero), y_hi = _mm256_unpackhi_epi8(y8, zero);
    __m256i top_lo = lerp16_avx2(_mm256_unpacklo_epi8(a, zero), _mm256_unpacklo_epi8(b, zero), x_lo);
    __m256i top_hi = lerp16_avx2(_mm256_unpackhi_epi8(a, zero), _mm256_unpackhi_epi8(b, zero), x_hi);
    __m256i bottom_lo = lerp16_avx2(_mm256_unpacklo_epi8(c, zero), _mm256_unpacklo_epi8(d, zero), x_lo);
    __m256i bottom_hi = lerp16_avx2(_mm256_unpackhi_epi8(c, zero), _mm256_unpackhi_epi8(d, zero), x_hi);
    *lo = lerp16_avx2(top_lo, bottom_lo, y_lo);
    *hi = lerp16_avx2(top_hi, bottom_hi, y_hi);
}

__attribute__((target("avx2")))
size_t lamina_image_run_bilinear_avx2(const uint32_t *texels, size_t row_pixels, int64_t su, int64_t sv,
                                      int64_t step_u, int64_t step_v, int64_t inner_u, int64_t inner_v,
                                      uint32_t coverage, uint32_t *dst, size_t count) {
    // Unsigned arithmetic: the positions wrap exactly like the caller's 64-bit integers.
    uint64_t u = (uint64_t)su, v = (uint64_t)sv;
    const uint64_t du = (uint64_t)step_u, dv = (uint64_t)step_v;
    const uint64_t limit_u = (uint64_t)inner_u, limit_v = (uint64_t)inner_v;
    // Samples 0, 1, 4, 5 in the first register of each pair and 2, 3, 6, 7 in the second, so
    // taking the 32-bit halves of both (shuffle_ps within 128-bit lanes) gives samples 0…7 in order.
    int64_t lanes[4][4];
    static const int order[2][4] = {{0, 1, 4, 5}, {2, 3, 6, 7}};
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < 4; k++) {
            lanes[r][k] = (int64_t)(u + (uint64_t)order[r][k] * du);
            lanes[2 + r][k] = (int64_t)(v + (uint64_t)order[r][k] * dv);
        }
    }
    __m256i u0 = _mm256_loadu_si256((const __m256i *)lanes[0]), u1 = _mm256_loadu_si256((const __m256i *)lanes[1]);
    __m256i v0 = _mm256_loadu_si256((const __m256i *)lanes[2]), v1 = _mm256_loadu_si256((const __m256i *)lanes[3]);
    const __m256i group_u = _mm256_set1_epi64x((long long)(8 * du)), group_v = _mm256_set1_epi64x((long long)(8 * dv));
    const __m256i stride = _mm256_set1_epi32((int)row_pixels);
    const __m256i m = _mm256_set1_epi16((short)coverage), maximum = _mm256_set1_epi16(255), zero = _mm256_setzero_si256();
    const int scaled = coverage < 255;
    const int *base = (const int *)texels;
    size_t i = 0;
    while (i + 8 <= count) {
        // Every sample of the group reads four texels inside the image: positions are affine
        // in the lane index, so the first and last inside means all are (and, being below
        // the limits, non-negative: the high halves are the texel coordinates).
        uint64_t lu = u + 7 * du, lv = v + 7 * dv;
        if (!(u < limit_u && lu < limit_u && v < limit_v && lv < limit_v)) break;
        __m256 fu0 = _mm256_castsi256_ps(u0), fu1 = _mm256_castsi256_ps(u1);
        __m256 fv0 = _mm256_castsi256_ps(v0), fv1 = _mm256_castsi256_ps(v1);
        __m256i tx = _mm256_castps_si256(_mm256_shuffle_ps(fu0, fu1, _MM_SHUFFLE(3, 1, 3, 1)));
        __m256i ty = _mm256_castps_si256(_mm256_shuffle_ps(fv0, fv1, _MM_SHUFFLE(3, 1, 3, 1)));
        // Bits 24…31 of the position: the top byte of each low half.
        __m256i wx = _mm256_srli_epi32(_mm256_castps_si256(_mm256_shuffle_ps(fu0, fu1, _MM_SHUFFLE(2, 0, 2, 0))), 24);
        __m256i wy = _mm256_srli_epi32(_mm256_castps_si256(_mm256_shuffle_ps(fv0, fv1, _MM_SHUFFLE(2, 0, 2, 0))), 24);
        __m256i index = _mm256_add_epi32(_mm256_mullo_epi32(ty, stride), tx);
        __m256i a = _mm256_i32gather_epi32(base, index, 4);
        __m256i b = _mm256_i32gather_epi32(base + 1, index, 4);
        __m256i c = _mm256_i32gather_epi32(base + row_pixels, index, 4);
        __m256i d = _mm256_i32gather_epi32(base + row_pixels + 1, index, 4);
        __m256i src_lo, src_hi;
        bilinear8_avx2(a, b, c, d, wx, wy, &src_lo, &src_hi);
        if (scaled) {
            src_lo = div255_avx2(_mm256_mullo_epi16(src_lo, m));
            src_hi = div255_avx2(_mm256_mullo_epi16(src_hi, m));
        }
        __m256i alpha_lo = _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(src_lo, 0xFF), 0xFF);
        __m256i alpha_hi = _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(src_hi, 0xFF), 0xFF);
        __m256i under = _mm256_loadu_si256((const __m256i *)(dst + i));
        __m256i kept_lo = div255_avx2(_mm256_mullo_epi16(_mm256_unpacklo_epi8(under, zero), _mm256_sub_epi16(maximum, alpha_lo)));
        __m256i kept_hi = div255_avx2(_mm256_mullo_epi16(_mm256_unpackhi_epi8(under, zero), _mm256_sub_epi16(maximum, alpha_hi)));
        // Packed back to bytes before adding, so the sum wraps per pixel like the scalar blend.
        __m256i out = _mm256_add_epi32(_mm256_packus_epi16(src_lo, src_hi), _mm256_packus_epi16(kept_lo, kept_hi));
        _mm256_storeu_si256((__m256i *)(dst + i), out);
        u0 = _mm256_add_epi64(u0, group_u); u1 = _mm256_add_epi64(u1, group_u);
        v0 = _mm256_add_epi64(v0, group_v); v1 = _mm256_add_epi64(v1, group_v);
        u += 8 * du;
        v += 8 * dv;
        i += 8;
    }
    return i;
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

__attribute__((target("avx512f")))
void lamina_fill_avx512(uint32_t color, uint32_t *row, size_t count) {
    const __m512i c = _mm512_set1_epi32((int)color);
    size_t i = 0;
    for (; i + 16 <= count; i += 16) _mm512_storeu_si512((void *)(row + i), c);
    if (i < count) _mm512_mask_storeu_epi32(row + i, (__mmask16)((1u << (count - i)) - 1), c);
}

__attribute__((target("avx2")))
void lamina_fill_avx2(uint32_t color, uint32_t *row, size_t count) {
    const __m256i c = _mm256_set1_epi32((int)color);
    if (count < 8) {
        for (size_t i = 0; i < count; i++) row[i] = color;
        return;
    }
    size_t i = 0;
    for (; i + 8 <= count; i += 8) _mm256_storeu_si256((__m256i *)(row + i), c);
    // The last eight pixels once more (overlapping: the same colour) instead of a scalar tail.
    if (i < count) _mm256_storeu_si256((__m256i *)(row + count - 8), c);
}

// Eight pixels' channels as 16-bit lanes (four per pixel), from eight packed pixels.
#define WIDEN(x) _mm512_cvtepu8_epi16(x)

// a · (256 − w) / 256 + b · w / 256 per 16-bit channel, floored; exact in 16 bits because
// the true sum is at most 255 · 256.
__attribute__((target("avx512f,avx512bw")))
static inline __m512i lerp16(__m512i a, __m512i b, __m512i w) {
    const __m512i full = _mm512_set1_epi16(256);
    __m512i sum = _mm512_add_epi16(_mm512_mullo_epi16(a, _mm512_sub_epi16(full, w)), _mm512_mullo_epi16(b, w));
    return _mm512_srli_epi16(sum, 8);
}

// round(x / 255) per 16-bit lane for x ≤ 255 · 255, as (t + (t >> 8)) >> 8 with t = x + 128.
__attribute__((target("avx512f,avx512bw")))
static inline __m512i div255_16(__m512i x) {
    return _mm512_mulhi_epu16(_mm512_add_epi16(x, _mm512_set1_epi16(128)), _mm512_set1_epi16(257));
}

__attribute__((target("avx512f,avx512bw")))
size_t lamina_image_run_bilinear_avx512(const uint32_t *texels, size_t row_pixels, int64_t su, int64_t sv,
                                        int64_t step_u, int64_t step_v, int64_t inner_u, int64_t inner_v,
                                        uint32_t coverage, uint32_t *dst, size_t count) {
    // Unsigned arithmetic: the positions wrap exactly like the caller's 64-bit integers.
    uint64_t u = (uint64_t)su, v = (uint64_t)sv;
    const uint64_t du = (uint64_t)step_u, dv = (uint64_t)step_v;
    const uint64_t limit_u = (uint64_t)inner_u, limit_v = (uint64_t)inner_v;
    int64_t lanes_u[8], lanes_v[8];
    for (int k = 0; k < 8; k++) {
        lanes_u[k] = (int64_t)(u + (uint64_t)k * du);
        lanes_v[k] = (int64_t)(v + (uint64_t)k * dv);
    }
    __m512i vu = _mm512_loadu_si512(lanes_u), vv = _mm512_loadu_si512(lanes_v);
    const __m512i group_u = _mm512_set1_epi64((long long)(8 * du)), group_v = _mm512_set1_epi64((long long)(8 * dv));
    const __m512i byte = _mm512_set1_epi64(0xFF);
    const __m256i stride = _mm256_set1_epi32((int)row_pixels);
    const __m256i spread = _mm256_set1_epi32(0x01010101);
    const __m512i m = _mm512_set1_epi16((short)coverage);
    const __m512i maximum = _mm512_set1_epi16(255);
    const int scaled = coverage < 255;
    size_t i = 0;
    while (i + 8 <= count) {
        // Every sample of the group reads four texels inside the image: positions are affine
        // in the lane index, so the first and last inside means all are.
        uint64_t lu = u + 7 * du, lv = v + 7 * dv;
        if (!(u < limit_u && lu < limit_u && v < limit_v && lv < limit_v)) break;
        __m256i tx = _mm512_cvtepi64_epi32(_mm512_srai_epi64(vu, 32));
        __m256i ty = _mm512_cvtepi64_epi32(_mm512_srai_epi64(vv, 32));
        __m256i wx = _mm512_cvtepi64_epi32(_mm512_and_si512(_mm512_srli_epi64(vu, 24), byte));
        __m256i wy = _mm512_cvtepi64_epi32(_mm512_and_si512(_mm512_srli_epi64(vv, 24), byte));
        __m256i index = _mm256_add_epi32(_mm256_mullo_epi32(ty, stride), tx);
        const int *base = (const int *)texels;
        __m512i a = WIDEN(_mm256_i32gather_epi32(base, index, 4));
        __m512i b = WIDEN(_mm256_i32gather_epi32(base + 1, index, 4));
        __m512i c = WIDEN(_mm256_i32gather_epi32(base + row_pixels, index, 4));
        __m512i d = WIDEN(_mm256_i32gather_epi32(base + row_pixels + 1, index, 4));
        __m512i weight_x = WIDEN(_mm256_mullo_epi32(wx, spread));
        __m512i weight_y = WIDEN(_mm256_mullo_epi32(wy, spread));
        __m512i src = lerp16(lerp16(a, b, weight_x), lerp16(c, d, weight_x), weight_y);
        if (scaled) src = div255_16(_mm512_mullo_epi16(src, m));
        __m512i alpha = _mm512_shufflehi_epi16(_mm512_shufflelo_epi16(src, 0xFF), 0xFF);
        __m512i under = WIDEN(_mm256_loadu_si256((const __m256i *)(dst + i)));
        __m512i kept = div255_16(_mm512_mullo_epi16(under, _mm512_sub_epi16(maximum, alpha)));
        // Packed back to bytes before adding, so the sum wraps per pixel like the scalar blend.
        __m256i out = _mm256_add_epi32(_mm512_cvtepi16_epi8(src), _mm512_cvtepi16_epi8(kept));
        _mm256_storeu_si256((__m256i *)(dst + i), out);
        vu = _mm512_add_epi64(vu, group_u);
        vv = _mm512_add_epi64(vv, group_v);
        u += 8 * du;
        v += 8 * dv;
        i += 8;
    }
    return i;
}
#undef WIDEN

// One step of the coverage blend: `n` (1…8) pixels of `dst` under `color` through their
// coverage `m32` (0…255 in each 32-bit lane).
__attribute__((target("avx512f,avx512bw,avx512vl")))
static inline void blend_step(__m512i color, __m256i m32, uint32_t *dst, unsigned n) {
    const __mmask8 lanes = (__mmask8)((1u << n) - 1);
    const __m512i maximum = _mm512_set1_epi16(255);
    __m512i m = _mm512_cvtepu8_epi16(_mm256_mullo_epi32(m32, _mm256_set1_epi32(0x01010101)));
    __m512i src = div255_16(_mm512_mullo_epi16(color, m));
    __m512i alpha = _mm512_shufflehi_epi16(_mm512_shufflelo_epi16(src, 0xFF), 0xFF);
    __m512i under = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi32(lanes, dst));
    __m512i kept = div255_16(_mm512_mullo_epi16(under, _mm512_sub_epi16(maximum, alpha)));
    __m256i out = _mm256_add_epi32(_mm512_cvtepi16_epi8(src), _mm512_cvtepi16_epi8(kept));
    _mm256_mask_storeu_epi32(dst, lanes, out);
}

// One step of the mask blend: `n` (1…8) pixels through coverage bytes.
__attribute__((target("avx512f,avx512bw,avx512vl")))
static inline void mask_step(__m512i color, const uint8_t *coverage, uint32_t *dst, unsigned n) {
    const __mmask8 lanes = (__mmask8)((1u << n) - 1);
    blend_step(color, _mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(lanes, coverage)), dst, n);
}

__attribute__((target("avx512f,avx512bw,avx512vl")))
void lamina_blend_coverage_avx512(uint32_t color, const float *coverage, uint32_t *dst, size_t count) {
    const __m512i wide = _mm512_cvtepu8_epi16(_mm256_set1_epi32((int)color));
    const __m256 scale = _mm256_set1_ps(255.0f), half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps();
    size_t i = 0;
    while (i < count) {
        unsigned n = count - i < 8 ? (unsigned)(count - i) : 8;
        __m256 c = _mm256_maskz_loadu_ps((__mmask8)((1u << n) - 1), coverage + i);
        // m = c · 255 + ½ truncated, as two separate roundings (no fused multiply-add);
        // zero where c is not above zero (NaN included).
        __m256 scaled = _mm256_add_ps(_mm256_mul_ps(c, scale), half);
        __m256i m = _mm256_maskz_cvttps_epu32(_mm256_cmp_ps_mask(c, zero, _CMP_GT_OQ), scaled);
        // Above 255 (coverage a little over 1) counts as 255, as the scalar composite takes it.
        blend_step(wide, _mm256_min_epu32(m, _mm256_set1_epi32(255)), dst + i, n);
        i += n;
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl")))
void lamina_blend_mask_rows_avx512(uint32_t color, const uint8_t *coverage, size_t coverage_stride, uint32_t *dst,
                                   size_t dst_stride, size_t count, size_t rows) {
    const __m512i wide = _mm512_cvtepu8_epi16(_mm256_set1_epi32((int)color));
    for (size_t row = 0; row < rows; row++, coverage += coverage_stride, dst += dst_stride) {
        size_t i = 0;
        for (; i + 8 <= count; i += 8) mask_step(wide, coverage + i, dst + i, 8);
        if (i < count) mask_step(wide, coverage + i, dst + i, (unsigned)(count - i));
    }
}

#else
// Other architectures: no AVX2, so callers never dispatch here; the scalar loops keep the
// functions correct all the same.
int lamina_kernels_have_avx2(void) { return 0; }
int lamina_kernels_have_avx512(void) { return 0; }
void lamina_blend_run_avx512(uint32_t src, uint32_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) row[i] = scalar_over(src, row[i]);
}
void lamina_blend_coverage_avx512(uint32_t color, const float *coverage, uint32_t *dst, size_t count) {
    (void)color; (void)coverage; (void)dst; (void)count;   // never dispatched here
}
void lamina_blend_mask_rows_avx512(uint32_t color, const uint8_t *coverage, size_t coverage_stride, uint32_t *dst,
                                   size_t dst_stride, size_t count, size_t rows) {
    (void)color; (void)coverage; (void)coverage_stride; (void)dst; (void)dst_stride; (void)count; (void)rows;
}
size_t lamina_image_run_bilinear_avx512(const uint32_t *texels, size_t row_pixels, int64_t su, int64_t sv,
                                        int64_t step_u, int64_t step_v, int64_t inner_u, int64_t inner_v,
                                        uint32_t coverage, uint32_t *dst, size_t count) {
    return 0;   // never dispatched here; the caller's scalar loop draws every pixel
}
void lamina_blend_run_avx2(uint32_t src, uint32_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) row[i] = scalar_over(src, row[i]);
}
size_t lamina_image_run_bilinear_avx2(const uint32_t *texels, size_t row_pixels, int64_t su, int64_t sv,
                                      int64_t step_u, int64_t step_v, int64_t inner_u, int64_t inner_v,
                                      uint32_t coverage, uint32_t *dst, size_t count) {
    return 0;   // never dispatched here; the caller's scalar loop draws every pixel
}
void lamina_blend_coverage_avx2(uint32_t color, const float *coverage, uint32_t *dst, size_t count) {
    (void)color; (void)coverage; (void)dst; (void)count;   // never dispatched here
}
void lamina_blend_mask_rows_avx2(uint32_t color, const uint8_t *coverage, size_t coverage_stride, uint32_t *dst,
                                 size_t dst_stride, size_t count, size_t rows) {
    (void)color; (void)coverage; (void)coverage_stride; (void)dst; (void)dst_stride; (void)count; (void)rows;
}
void lamina_fill_avx512(uint32_t color, uint32_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) row[i] = color;
}
void lamina_fill_avx2(uint32_t color, uint32_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) row[i] = color;
}
#endif
