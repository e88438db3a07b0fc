// The fast rasterizer's sweep for its commonest case, a solid colour under the non-zero rule
// with no clip mask (LaminaRaster's FixedPointCoverage.sweep with a SolidColorSink): a band's
// touched cells turned into 8-bit coverage and composited in one pass, the stretches between
// them as runs. The same pixels as the Swift sweep, bit for bit (FixedPointRule.alpha is the
// float coverage's `UInt32(c · 255 + 0.5)` exactly, and each blend kernel equals
// Blend.composite); in C because the Swift loop kept its dozen row variables on the stack.
#include "lamina_kernels.h"
#include "lamina_prefix.h"
#include "lamina_scalar.h"
#include "lamina_avx2.h"
#include <string.h>

/* min(|sum|, full) as 0…255, rounded half up (FixedPointRule.alpha(numerator:)). */
static inline uint32_t nonzero_alpha(uint32_t sum) {
    return (lamina_nonzero_clamped(sum) * 255 + LAMINA_FULL_COVERAGE / 2) / LAMINA_FULL_COVERAGE;
}

typedef uint8_t lamina_b4 __attribute__((vector_size(4)));

/* `count` cells' running sums from `sum` as nonzero_alpha bytes, the cells cleared, four a
 * step with the vector prefix sum; returns the sum after the last. Integer sums do not
 * depend on their order: the same bytes as one cell at a time. */
static uint32_t stretch_alpha(int32_t *cells, uint8_t *alpha, size_t count, uint32_t sum) {
    const lamina_u4 half = {LAMINA_FULL_COVERAGE / 2, LAMINA_FULL_COVERAGE / 2, LAMINA_FULL_COVERAGE / 2,
                            LAMINA_FULL_COVERAGE / 2};
    lamina_u4 carry = {sum, sum, sum, sum};
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        lamina_u4 c = lamina_prefix4_nonzero(cells + i, &carry);
        // (c · 255 + full / 2) / full, the multiply as a shift and a subtract (SSE2 has no
        // 32-bit multiply) and the divide as a shift (full is 2¹⁷).
        lamina_b4 bytes = __builtin_convertvector(((c << 8) - c + half) >> 17, lamina_b4);
        memcpy(alpha + i, &bytes, sizeof bytes);
    }
    sum = carry[0];
    for (; i < count; i++) {
        sum += (uint32_t)cells[i];
        cells[i] = 0;
        alpha[i] = (uint8_t)nonzero_alpha(sum);
    }
    return sum;
}

#if defined(__x86_64__)
/* A touched stretch on CPUs with AVX2, in one pass eight cells a step (decision 163): `count`
 * cells' running sums from `sum`, the cells cleared, nonzero_alpha of each, and `color`
 * composited through it onto pixels `from ..< to` of `pixels` (the stretch's own columns; the
 * rest lie outside the columns drawn). Returns the sum after the last cell. The same bytes as
 * stretch_alpha (integer sums do not depend on their order) and the same pixels as
 * pixel_composite (coverage8_avx2 is its twin, and a coverage of 0 leaves a pixel as it was).
 * Unless `clipped`, every pixel of the stretch is drawn (from 0 to count: a stretch away from
 * the canvas's sides, nearly all of them), and no step works out which. */
__attribute__((target("avx2")))
static inline uint32_t stretch_composite_avx2(int32_t *cells, size_t count, uint32_t sum, uint32_t color,
                                              uint32_t *pixels, ptrdiff_t from, ptrdiff_t to, const int clipped) {
    const __m256i zero = _mm256_setzero_si256(), full = _mm256_set1_epi32((int)LAMINA_FULL_COVERAGE);
    const __m256i half = _mm256_set1_epi32(LAMINA_FULL_COVERAGE / 2);
    const __m256i lane3 = _mm256_set1_epi32(3), lane7 = _mm256_set1_epi32(7);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i low = _mm256_set1_epi32((int)from - 1), high = _mm256_set1_epi32((int)to);
    const __m256i color16 = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)color), zero);
    __m256i carry = _mm256_set1_epi32((int)sum);
    for (size_t i = 0; i < count; i += 8) {
        __m256i x;
        const int whole = count - i >= 8;
        // The last cells alone: those after them are another row's (masked lanes read 0).
        const __m256i tail = whole ? zero : first_lanes_avx2(count - i);
        x = whole ? _mm256_loadu_si256((const __m256i *)(cells + i)) : _mm256_maskload_epi32((const int *)(cells + i), tail);
        if (_mm256_testz_si256(x, x)) {
            // Eight untouched cells (inside a shape, or between two): the sum goes through them
            // unchanged, so every lane has the carried sum, and nothing needs clearing.
            x = carry;
        } else {
            if (whole) {
                _mm256_storeu_si256((__m256i *)(cells + i), zero);
            } else {
                _mm256_maskstore_epi32((int *)(cells + i), tail, zero);
            }
            x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));          // prefix sums within each half
            x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
            x = _mm256_add_epi32(x, _mm256_blend_epi32(zero, _mm256_permutevar8x32_epi32(x, lane3), 0xF0));
            x = _mm256_add_epi32(x, carry);                            // wraps, as the scalar sum does
            carry = _mm256_permutevar8x32_epi32(x, lane7);
        }
        // min(|sum|, full), the magnitude unsigned (INT32_MIN clamps to full), then
        // (c · 255 + full / 2) >> 17 as in stretch_alpha.
        __m256i c = _mm256_min_epu32(_mm256_abs_epi32(x), full);
        __m256i m = _mm256_srli_epi32(_mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32(c, 8), c), half), 17);
        if (_mm256_testz_si256(m, m)) continue;                    // no coverage: the pixels stay
        if (!clipped) {
            blend_step_avx2(color16, m, pixels + i, whole ? 8 : count - i);
            continue;
        }
        // The lanes within from ..< to.
        __m256i column = _mm256_add_epi32(_mm256_set1_epi32((int)i), lanes);
        __m256i drawn = _mm256_and_si256(_mm256_cmpgt_epi32(column, low), _mm256_cmpgt_epi32(high, column));
        int bits = _mm256_movemask_ps(_mm256_castsi256_ps(drawn));
        if (bits == 0xFF) {
            __m256i d = _mm256_loadu_si256((const __m256i *)(pixels + i));
            _mm256_storeu_si256((__m256i *)(pixels + i), coverage8_avx2(color16, m, d));
        } else if (bits != 0) {
            __m256i d = _mm256_maskload_epi32((const int *)(pixels + i), drawn);
            _mm256_maskstore_epi32((int *)(pixels + i), drawn, coverage8_avx2(color16, m, d));
        }
    }
    return (uint32_t)_mm256_cvtsi256_si32(carry);
}
#endif

/* `count` pixels set to `color` (an opaque colour at full coverage), with the kernels of `level`. */
static void fill_run(int level, uint32_t color, uint32_t *p, size_t count) {
    if (count >= 8 && level == 2) lamina_fill_avx512(color, p, count);
    else if (count >= 8 && level == 1) lamina_fill_avx2(color, p, count);
    else for (size_t i = 0; i < count; i++) p[i] = color;
}

/* `src` over `count` pixels. */
static void blend_run(int level, uint32_t src, uint32_t *p, size_t count) {
    if (level == 2) lamina_blend_run_avx512(src, p, count);
    else if (level == 1) lamina_blend_run_avx2(src, p, count);
    else for (size_t i = 0; i < count; i++) p[i] = scalar_over(src, p[i]);
}

/* `color` through 8-bit coverage `m` (1…255) over `count` pixels (SolidColorSink.run). */
static inline __attribute__((always_inline)) void coverage_run(int level, uint32_t color, uint32_t m, uint32_t *p,
                                                               size_t count) {
    if (m < 255) blend_run(level, scalar_scale(color, m), p, count);
    else if (color >> 24 == 255) fill_run(level, color, p, count);
    else blend_run(level, color, p, count);
}

/* Columns x0 ..< x1 of the row at `row` under the running sum's coverage (SolidColorSink.run).
 * Inlined into both call sites: as a call it cost W2 and W4 about 3 % more instructions (the
 * saved registers, and the sweep's loop state spilled around it). */
static inline __attribute__((always_inline)) void emit_run(const lamina_solid_sweep *s, uint32_t *row, ptrdiff_t x0,
                                                           ptrdiff_t x1, uint32_t sum) {
    uint32_t m = nonzero_alpha(sum);
    // Most runs are a shape's outside (a row's start and end, where the sum is zero): done
    // with before the columns are clamped.
    if (__builtin_expect(m == 0, 1)) return;
    ptrdiff_t a = x0 > s->out_x0 ? x0 : s->out_x0, b = x1 < s->out_x1 ? x1 : s->out_x1;
    if (a >= b) return;
    coverage_run(s->level, s->color, m, row + a, (size_t)(b - a));
}

/* Coverage bytes of `count` pixels over the row at `p` (SolidColorSink.span), without vector
 * kernels (AVX2 composites each stretch as it sums it: stretch_composite_avx2). */
static void blend_mask(const lamina_solid_sweep *s, const uint8_t *coverage, uint32_t *p, size_t count) {
    for (size_t i = 0; i < count; i++) if (coverage[i]) pixel_composite(s->color, coverage[i], p + i);
}

/* Warms the destination of a row's first and last touched pixels (thin shapes are all edge
 * pixels, each on a cold cache line otherwise): the row's touched words `words`, its first
 * and last touched words, and its pixels `row`, indexed by column. */
static inline void prefetch_row(const lamina_solid_sweep *s, const uint64_t *words, ptrdiff_t first, ptrdiff_t last,
                                uint32_t *row) {
    if (first > last) return;
    ptrdiff_t x0 = s->band.col_first + first * 64 + __builtin_ctzll(words[first]);
    ptrdiff_t x1 = s->band.col_first + last * 64 + 63 - __builtin_clzll(words[last]);
    lamina_prefetch_write(row + (x0 < s->out_x1 - 1 ? x0 : s->out_x1 - 1));
    lamina_prefetch_write(row + (x1 < s->out_x1 - 1 ? x1 : s->out_x1 - 1));
}

/* The sweep of lamina_sweep_solid_nonzero, compiled twice: `vector` (AVX2) composites each
 * touched stretch as it sums it (stretch_composite_avx2), the portable build a pixel at a time
 * or through a coverage buffer. As one AVX2 function the stretch kernel is inlined and its
 * constants stay in registers across a band, where calling it from the portable function
 * cost a call and a reload of the portable path's constants per stretch. */
static inline __attribute__((always_inline)) void sweep_band(const lamina_solid_sweep *const sweep, const int vector) {
    (void)vector;   // read only where the AVX2 twin is built (x86-64)
    // A copy the stores into pixels, cells and bounds cannot alias (`color` and `level` share
    // their types), so its fields stay in registers instead of being read again every row.
    const lamina_solid_sweep local_sweep = *sweep, *const s = &local_sweep;
    const ptrdiff_t col_end = s->band.col_first + s->band.row_length;
    const ptrdiff_t ahead = 2;   // rows warmed ahead of the one swept
    uint8_t alpha[64];
    // The row's cells (indexed by column), touched words and pixels, moved on a row at a time
    // (recomputing them from the row's index cost a multiply and the fields' reloads each).
    int32_t *cells = s->band.cells - s->band.col_first;
    uint64_t *words = s->band.touched;
    uint32_t *row = s->pixels + s->y0 * s->stride;
    int32_t *const row_first = s->band.row_first_word, *const row_last = s->band.row_last_word;
    for (ptrdiff_t local = 0; local < ahead && local < s->rows; local++) {
        prefetch_row(s, words + local * s->band.words_per_row, row_first[local], row_last[local],
                     row + local * s->stride);
    }
    const ptrdiff_t words_ahead = ahead * s->band.words_per_row, pixels_ahead = ahead * s->stride;
    for (ptrdiff_t local = 0; local < s->rows;
         local++, cells += s->band.row_length, words += s->band.words_per_row, row += s->stride) {
        ptrdiff_t first_word = row_first[local], last_word = row_last[local];
        if (local + ahead < s->rows) {
            prefetch_row(s, words + words_ahead, row_first[local + ahead], row_last[local + ahead], row + pixels_ahead);
        }
        if (first_word > last_word) continue;                 // untouched row: no coverage
        row_first[local] = INT32_MAX;
        row_last[local] = -1;
        uint32_t sum = 0;                                     // wraps, as the Swift side's &+
        ptrdiff_t next = s->band.col_first;                   // first column not yet emitted
        for (ptrdiff_t w = first_word; w <= last_word; w++) {
            uint64_t bits = words[w];
            if (bits == 0) continue;
            words[w] = 0;
            // The word's first to last touched cell as one stretch of per-pixel coverage
            // (cells between touched ones are zero, so they carry the sum unchanged).
            ptrdiff_t first = s->band.col_first + w * 64 + __builtin_ctzll(bits);
            ptrdiff_t end = s->band.col_first + w * 64 + 64 - __builtin_clzll(bits);
            if (first > next) emit_run(s, row, next, first, sum);
            ptrdiff_t a = first > s->out_x0 ? first : s->out_x0, b = end < s->out_x1 ? end : s->out_x1;
#if defined(__x86_64__)
            if (vector) {
                // Two calls, so each inlined copy has `clipped` as a constant.
                if (a == first && b == end) {
                    sum = stretch_composite_avx2(cells + first, (size_t)(end - first), sum, s->color, row + first,
                                                 0, end - first, 0);
                } else {
                    sum = stretch_composite_avx2(cells + first, (size_t)(end - first), sum, s->color, row + first,
                                                 a - first, b - first, 1);
                }
            } else
#endif
            if (end - first < 8) {
                // A short stretch (an edge's few pixels): cell, sum, coverage, blend.
                for (ptrdiff_t x = first; x < end; x++) {
                    sum += (uint32_t)cells[x];
                    cells[x] = 0;
                    uint32_t m = nonzero_alpha(sum);
                    if (m != 0 && x >= a && x < b) pixel_composite(s->color, m, row + x);
                }
            } else {
                sum = stretch_alpha(cells + first, alpha, (size_t)(end - first), sum);
                if (a < b) blend_mask(s, alpha + (a - first), row + a, (size_t)(b - a));
            }
            next = end;
        }
        if (next < col_end) emit_run(s, row, next, col_end, sum);
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void sweep_band_avx2(const lamina_solid_sweep *s) { sweep_band(s, 1); }
#endif

void lamina_sweep_solid_nonzero(const lamina_solid_sweep *sweep) {
#if defined(__x86_64__)
    if (sweep->level > 0) {
        sweep_band_avx2(sweep);
        return;
    }
#endif
    sweep_band(sweep, 0);
}

void lamina_fill_straight_rows(const lamina_straight_rows *straight) {
    const lamina_straight_rows local = *straight, *const r = &local;   // in registers (as the sweep's copy)
    const size_t run = r->run_x1 > r->run_x0 ? (size_t)(r->run_x1 - r->run_x0) : 0;
    enum { ahead = 4 };   // rows of the edge pixels' lines warmed ahead (the runs stream by themselves)
    for (ptrdiff_t i = 0; i < r->rows; i++) {
        uint32_t *row = r->pixels + (r->y0 + i) * r->stride;
        if (i + ahead < r->rows) {
            lamina_prefetch_write(row + ahead * r->stride + r->left_x);
            lamina_prefetch_write(row + ahead * r->stride + r->right_x);
        }
        if (r->left_alpha != 0) pixel_composite(r->color, r->left_alpha, row + r->left_x);
        if (run != 0) coverage_run(r->level, r->color, r->run_alpha, row + r->run_x0, run);
        if (r->right_alpha != 0) pixel_composite(r->color, r->right_alpha, row + r->right_x);
    }
}
