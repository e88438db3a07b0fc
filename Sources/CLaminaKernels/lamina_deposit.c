// The fast rasterizer's deposits (LaminaRaster's FixedPointCoverage): each edge's rows
// within one band, in integers, into the band's cells and touched bits.
//
// A row of an edge runs from `xa` to `xb` (subpixels) over `m` subpixel rows. Column c then
// gains the area of [c, c+1) right of the edge, which the cells store as differences along the
// row (so the sweep's prefix sum gives it back), in units where a subpixel row over a whole
// column is 512. Within one column that is m · (512 − fa − fb) and the rest, m · (fa + fb),
// one cell on; across columns it is the trapezoid rule with m / (xb − xa) taken from the
// edge's slope (`per_column`), and the row's last cells take what the others leave, so every
// row still adds up to exactly 512 · m. In C beside the sweep that empties the same band
// (lamina_band, decision 154): the Swift loop reloaded the band's fields after every store
// into the cells, which it could not prove apart.
#include "lamina_kernels.h"
#include <string.h>

// An edge's x at a subpixel row is a multiply and an add that must round the same on every
// machine: never fused into one (arm64 has the instruction).
#pragma STDC FP_CONTRACT OFF

enum { subpixel_shift = 8 };

/* x rounded to the nearest integer, ties to even, without a libm call: adding 1.5 · 2⁵² leaves
 * the integer in the low bits (|x| < 2³¹). */
static inline int32_t rounded_int32(double x) {
    double shifted = x + 6755399441055744.0;
    uint64_t bits;
    memcpy(&bits, &shifted, sizeof bits);
    return (int32_t)(uint32_t)bits;
}

/* The edge's x at subpixel row `y` (y0 < y < y1), rounded. It needs no clamp to the edge's
 * columns: the exact x lies between x0 and x1, and the double arithmetic strays from it by
 * at most (y − y0) · |slope| · 2⁻⁵⁰ ≤ |x1 − x0| · 2⁻⁵⁰ < 2⁻¹⁹ of a subpixel (the coordinates are
 * within 2³¹ subpixels), so it rounds to x0 … x1 as the exact value would. */
static inline int32_t edge_x(const lamina_edge *edge, int32_t y) {
    return rounded_int32((double)edge->x0 + (double)(y - edge->y0) * edge->slope);
}

/* cell += value, wrapping as the sweep's sums do (signed overflow is undefined in C). */
static inline void add(int32_t *cell, int32_t value) { *cell = (int32_t)((uint32_t)*cell + (uint32_t)value); }

/* Sets every bit of words[w0 ..< w1] (a row of an edge crossing more than a word's columns). */
static __attribute__((noinline)) void fill_words(uint64_t *words, ptrdiff_t w0, ptrdiff_t w1) {
    for (ptrdiff_t w = w0; w < w1; w++) words[w] = ~(uint64_t)0;
}

/* One band row: its cells and touched words, indexed by band column (canvas column −
 * col_first), and its first and last touched words. */
typedef struct band_row {
    int32_t *cells;
    uint64_t *words;
    int32_t *first_word, *last_word;
} band_row;

static inline band_row band_row_at(const lamina_band *band, ptrdiff_t row) {
    return (band_row){band->cells + row * band->row_length, band->touched + row * band->words_per_row,
                      band->row_first_word + row, band->row_last_word + row};
}

static inline void next_row(const lamina_band *band, band_row *r) {
    r->cells += band->row_length;
    r->words += band->words_per_row;
    r->first_word++;
    r->last_word++;
}

/* Sets the touched bits of band columns x0 … x1 (x0 < x1) in row `r`. */
static inline __attribute__((always_inline)) void mark_touched(const band_row *r, ptrdiff_t x0, ptrdiff_t x1) {
    ptrdiff_t w0 = x0 >> 6, w1 = x1 >> 6;
    if (w0 < *r->first_word) *r->first_word = (int32_t)w0;
    if (w1 > *r->last_word) *r->last_word = (int32_t)w1;
    uint64_t low = ~(uint64_t)0 << (x0 & 63);          // bits x0 & 63 … 63
    uint64_t high = ~(uint64_t)0 >> (63 - (x1 & 63));  // bits 0 … x1 & 63
    if (w0 == w1) {
        r->words[w0] |= low & high;
        return;
    }
    r->words[w0] |= low;
    if (w1 > w0 + 1) fill_words(r->words, w0 + 1, w1);
    r->words[w1] |= high;
}

/* The columns cl + 1 … cr of a row crossing more than one column boundary (one row in seven
 * of W4's strokes). Not vectorised: clang hoisted the vector loop's set-up into every edge,
 * for a loop of two or three columns on average (decision 163). */
static inline __attribute__((always_inline)) void deposit_columns(const band_row *r, ptrdiff_t cl, ptrdiff_t cr,
                                                                   int32_t first, int32_t missing, int32_t area,
                                                                   int32_t direction, int64_t k, int64_t a) {
    // Column c's area, times 2³², as a running sum: from column cl + 1 on, each column
    // fully crossed adds k · 2¹⁶.
    int64_t sum = k * (256 * a + 32768);
    const int64_t step = k << 16;
    int32_t previous = first;
#pragma clang loop vectorize(disable) interleave(disable)
    for (ptrdiff_t c = cl + 1; c < cr; c++) {
        int32_t value = (int32_t)(sum >> 32);
        add(r->cells + c, direction * (value - previous));
        previous = value;
        sum += step;
    }
    add(r->cells + cr, direction * (area - missing - previous));
}

/* One row of an edge going `direction`, from xa to xb (subpixels, canvas) over m subpixel
 * rows, into row `r`. */
static inline __attribute__((always_inline)) void deposit_row(const band_row *r, ptrdiff_t col_first, int32_t xa,
                                                               int32_t xb, int32_t m, int32_t direction, int64_t k) {
    const int32_t xl = xa < xb ? xa : xb, xr = xa < xb ? xb : xa;
    const int32_t start = xl & ~255;
    const ptrdiff_t cl = (xl >> subpixel_shift) - col_first;
    if (xr - start <= 256) {
        // Within one column: the part right of the edge is 1 − (mean x − column).
        int32_t right = m * ((xl - start) + (xr - start));
        add(r->cells + cl, direction * (512 * m - right));
        add(r->cells + cl + 1, direction * right);
        mark_touched(r, cl, cl + 1);
        return;
    }
    const ptrdiff_t cr = (xr >> subpixel_shift) - col_first;
    const int64_t a = 256 - (xl & 255), fr = xr & 255;
    const int32_t area = 512 * m;
    int64_t first = (k * a * a) >> 33, missing = (k * fr * fr) >> 33;   // column cl; what column cr lacks
    if (first > area) first = area;
    if (missing > area) missing = area;
    add(r->cells + cl, direction * (int32_t)first);
    if (cr == cl + 1) {
        add(r->cells + cr, direction * (area - (int32_t)first - (int32_t)missing));
    } else {
        deposit_columns(r, cl, cr, (int32_t)first, (int32_t)missing, area, direction, k, a);
    }
    add(r->cells + cr + 1, direction * (int32_t)missing);
    mark_touched(r, cl, cr + 1);
}

/* The rows of `edge` in the band from canvas row `band_top` to subpixel row `band_bottom`. */
static inline __attribute__((always_inline)) void deposit_rows(const lamina_band *band, const lamina_edge *edge,
                                                                ptrdiff_t band_top, int32_t band_bottom) {
    const int32_t top = (int32_t)band_top << subpixel_shift;
    int32_t ya = edge->y0 > top ? edge->y0 : top;
    const int32_t ye = edge->y1 < band_bottom ? edge->y1 : band_bottom;
    if (ya >= ye) return;
    band_row r = band_row_at(band, (ya >> subpixel_shift) - band_top);
    if (edge->x0 == edge->x1) {
        // Vertical: the same column and split in every row, scaled by the row's height.
        const ptrdiff_t column = (edge->x0 >> subpixel_shift) - band->col_first;
        const int32_t twice = 2 * (edge->x0 & 255);
        for (;;) {
            int32_t yb = (ya | 255) + 1;
            if (yb > ye) yb = ye;
            int32_t m = edge->direction * (yb - ya);
            add(r.cells + column, m * (512 - twice));
            add(r.cells + column + 1, m * twice);
            mark_touched(&r, column, column + 1);
            ya = yb;
            if (ya >= ye) return;
            next_row(band, &r);
        }
    }
    const int32_t direction = edge->direction;
    const int64_t k = edge->per_column;
    int32_t xa = ya == edge->y0 ? edge->x0 : edge_x(edge, ya);
    for (;;) {
        int32_t yb = (ya | 255) + 1;
        if (yb > ye) yb = ye;
        int32_t xb = yb == edge->y1 ? edge->x1 : edge_x(edge, yb);
        deposit_row(&r, band->col_first, xa, xb, yb - ya, direction, k);
        ya = yb;
        if (ya >= ye) return;
        xa = xb;
        next_row(band, &r);
    }
}

/* lamina_deposit_edges' loop, compiled twice (as the sweep is): the portable build, and one
 * for CPUs with AVX2 and BMI2, whose shifts by a register (shlx, shrx) and bit counts leave
 * the shift count's register free, so more of the loop's state stays in registers. The same
 * integer arithmetic and the same doubles (no fused multiply-add: FP_CONTRACT is off). */
static inline __attribute__((always_inline)) size_t deposit_edges(const lamina_band *band, const lamina_edge *edges,
                                                                  size_t count, ptrdiff_t band_top,
                                                                  int32_t band_bottom, lamina_edge *carried) {
    // A copy the stores into cells and bits cannot alias, so its fields stay in registers.
    const lamina_band local = *band;
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        const lamina_edge edge = edges[i];
        deposit_rows(&local, &edge, band_top, band_bottom);
        if (edge.y1 > band_bottom) carried[kept++] = edge;
    }
    return kept;
}

#if defined(__x86_64__)
__attribute__((target("avx2,bmi,bmi2")))
static size_t deposit_edges_bmi2(const lamina_band *band, const lamina_edge *edges, size_t count, ptrdiff_t band_top,
                                 int32_t band_bottom, lamina_edge *carried) {
    return deposit_edges(band, edges, count, band_top, band_bottom, carried);
}

/* AVX2 allowed (LAMINA_KERNELS) and present, and BMI2 present (every AVX2 CPU so far). */
static int have_bmi2(void) {
    static int cached = -1;
    if (cached < 0) cached = lamina_kernels_have_avx2() && __builtin_cpu_supports("bmi2") ? 1 : 0;
    return cached;
}
#endif

size_t lamina_deposit_edges_portable(const lamina_band *band, const lamina_edge *edges, size_t count,
                                     ptrdiff_t band_top, int32_t band_bottom, lamina_edge *carried) {
    return deposit_edges(band, edges, count, band_top, band_bottom, carried);
}

size_t lamina_deposit_edges(const lamina_band *band, const lamina_edge *edges, size_t count, ptrdiff_t band_top,
                            int32_t band_bottom, lamina_edge *carried) {
#if defined(__x86_64__)
    if (have_bmi2()) return deposit_edges_bmi2(band, edges, count, band_top, band_bottom, carried);
#endif
    return lamina_deposit_edges_portable(band, edges, count, band_top, band_bottom, carried);
}
