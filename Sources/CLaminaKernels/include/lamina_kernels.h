// Pixel kernels that need wider vectors than Swift's baseline x86-64 target (SSE2) allows:
// compiled for AVX2 or AVX-512 per function and chosen at run time when the CPU has it. Each computes
// exactly what LaminaRaster's scalar reference computes, bit for bit.
#ifndef LAMINA_KERNELS_H
#define LAMINA_KERNELS_H
#include <stddef.h>
#include <stdint.h>

/// True when this CPU runs the AVX2 kernels.
int lamina_kernels_have_avx2(void);

/// `src` (premultiplied 0xAARRGGBB) over each of `count` pixels:
/// dst = src + round(dst · (255 − src.a) / 255) per channel, rounding as
/// (t + (t >> 8)) >> 8 with t = x + 128. Requires lamina_kernels_have_avx2().
void lamina_blend_run_avx2(uint32_t src, uint32_t *row, size_t count);

/// True when this CPU runs the AVX-512 (F + BW) kernels.
int lamina_kernels_have_avx512(void);

/// The same as lamina_blend_run_avx2, sixteen pixels per step (the tail masked).
/// Requires lamina_kernels_have_avx512().
void lamina_blend_run_avx512(uint32_t src, uint32_t *row, size_t count);

/// Sets each of `count` pixels to `color` (an opaque run), 64 bytes per store, the tail
/// masked. Requires lamina_kernels_have_avx512().
void lamina_fill_avx512(uint32_t color, uint32_t *row, size_t count);
/// The same, 32 bytes per store. Requires lamina_kernels_have_avx2().
void lamina_fill_avx2(uint32_t color, uint32_t *row, size_t count);

/// `color` (premultiplied) through a per-pixel coverage byte over `rows` rows of `count`
/// pixels (row r reads `coverage + r · coverage_stride` and writes `dst + r · dst_stride`: a
/// glyph's mask in one call): dst = s + round(dst · (255 − s.a) / 255) with
/// s = round(color · coverage / 255), which is LaminaRaster's composite step for every coverage
/// (0 leaves the pixel, 255 is plain src-over). Requires lamina_kernels_have_avx512().
void lamina_blend_mask_rows_avx512(uint32_t color, const uint8_t *coverage, size_t coverage_stride, uint32_t *dst,
                                   size_t dst_stride, size_t count, size_t rows);

/// The same with float coverage in 0…1 (or NaN), turned into 0…255 exactly as LaminaRaster's
/// solid paint does: m = trunc(c · 255 + 0.5) for c > 0, else 0. Requires
/// lamina_kernels_have_avx512().
void lamina_blend_coverage_avx512(uint32_t color, const float *coverage, uint32_t *dst, size_t count);

/// lamina_blend_mask_rows_avx512 eight pixels per step (AVX2 machines: most x86 kiosk boards).
/// Requires lamina_kernels_have_avx2().
void lamina_blend_mask_rows_avx2(uint32_t color, const uint8_t *coverage, size_t coverage_stride, uint32_t *dst,
                                 size_t dst_stride, size_t count, size_t rows);
/// lamina_blend_coverage_avx512 eight pixels per step. Requires lamina_kernels_have_avx2().
void lamina_blend_coverage_avx2(uint32_t color, const float *coverage, uint32_t *dst, size_t count);

/// Bilinear image samples through a constant coverage (1…255), src-over onto `dst`, eight
/// pixels per step, for as long as every sample's four texels lie inside the image; returns
/// how many pixels it drew (a multiple of eight, possibly zero: the caller draws the rest).
/// Sample k sits at 32.32 fixed-point texel position (su + k·step_u, sv + k·step_v), already
/// shifted by half a texel; "inside" is 0 ≤ su < inner_u and 0 ≤ sv < inner_v. Bit for bit
/// LaminaRaster's ImageSink arithmetic. Requires lamina_kernels_have_avx512().
size_t lamina_image_run_bilinear_avx512(const uint32_t *texels, size_t row_pixels, int64_t su, int64_t sv,
                                        int64_t step_u, int64_t step_v, int64_t inner_u, int64_t inner_v,
                                        uint32_t coverage, uint32_t *dst, size_t count);
/// lamina_image_run_bilinear_avx512 eight pixels per step with AVX2's gathers, the same
/// result bit for bit. Requires lamina_kernels_have_avx2().
size_t lamina_image_run_bilinear_avx2(const uint32_t *texels, size_t row_pixels, int64_t su, int64_t sv,
                                      int64_t step_u, int64_t step_v, int64_t inner_u, int64_t inner_v,
                                      uint32_t coverage, uint32_t *dst, size_t count);

/// The widest kernels LAMINA_KERNELS allows, read once: "scalar" 0, "avx2" 1, anything else
/// (or unset) 2, the best the CPU has. Lets one machine run every path (tests, callgrind).
int lamina_kernels_requested_level(void);

/// False when LAMINA_KERNELS=scalar: the sweep then takes the scalar twins below.
int lamina_kernels_allow_simd(void);

/// Full coverage of one pixel in the fast rasterizer's fixed-point cells: a pixel row is 256
/// subpixel rows, and a cell counts twice the covered subpixel area (2 · 256 · 256).
#define LAMINA_FULL_COVERAGE 131072u

/// Turns `count` accumulated fixed-point cells into non-zero coverage min(|sum|, full) / full,
/// the running sum starting at `acc` (wrapping, never trapping), and clears the cells;
/// returns the sum after the last cell. Four cells per step with a vector prefix sum.
int32_t lamina_coverage_fixed_nonzero_vector(int32_t *cells, float *coverage, size_t count, int32_t acc);
/// The scalar twin of lamina_coverage_fixed_nonzero_vector, one cell at a time.
int32_t lamina_coverage_fixed_nonzero_scalar(int32_t *cells, float *coverage, size_t count, int32_t acc);

/// One band of the fast rasterizer's cells (LaminaRaster's FixedPointCoverage): what the
/// deposits fill and the sweep empties.
typedef struct lamina_band {
    /// The band's cells, rows of `row_length`, the first column `col_first`; zero between bands.
    int32_t *cells;
    /// One bit per touched cell, `words_per_row` words a row; zero between bands.
    uint64_t *touched;
    /// Per band row, the first and last touched words (first > last: none).
    int32_t *row_first_word, *row_last_word;
    ptrdiff_t col_first, row_length, words_per_row;
} lamina_band;

/// One edge of the fast rasterizer, top to bottom, in subpixels (1/256 px).
typedef struct lamina_edge {
    int32_t x0, y0, x1, y1;
    /// +1 where the edge runs down the page, −1 where it runs up.
    int32_t direction;
    /// The band holding the edge's first row drawn.
    int32_t band;
    /// dx/dy.
    double slope;
    /// What one column fully crossed within a row gains, 2³³ · |dy/dx| (at most 2⁴²): the
    /// cells' full coverage per subpixel of height is 512, and the extra 2¹⁶ keeps the fraction
    /// through the deposit's running sum.
    int64_t per_column;
} lamina_edge;

/// A point of a polygon in device pixels (LaminaGeometry's Point: x, then y).
typedef struct lamina_point {
    double x, y;
} lamina_point;

/// The fast rasterizer's edge set-up for one shape (FixedPointCoverage.EdgeBuilder): where the
/// edges go, how many there are, their extent, and the clip and canvas they are set up for.
typedef struct lamina_edge_setup {
    /// The edges so far; room for at least 3 more per point of the next polygon added.
    lamina_edge *edges;
    size_t count;
    /// The extent of the edges kept: subpixel x, and y clipped to the rows drawn.
    int32_t min_x, max_x, min_y, max_y;
    /// Set when an edge was dropped for lying wholly right of the columns drawn.
    int32_t dropped_right;
    /// The rows drawn (subpixels, top inclusive, bottom exclusive), the columns' right end,
    /// and the canvas's right side (subpixels).
    int32_t clip_top, clip_bottom, clip_right, right;
    /// The box the points must lie in (px): within it every subpixel, and any difference of
    /// two, fits in 32 bits.
    double reach_x0, reach_y0, reach_x1, reach_y1;
} lamina_edge_setup;

/// Adds the edges of the closed polygon `points[0 ..< count]` to `setup`: end points rounded
/// to 1/256 px (ties to even), horizontal edges skipped, edges split where they leave the
/// canvas columns [0, right] and added with x clamped, and dropped where they miss the rows
/// drawn or lie wholly right of the columns drawn. Returns 0, having added only part of the
/// polygon, when a point lies outside the reach box or is not finite; 1 otherwise.
int lamina_add_polygon_edges(lamina_edge_setup *setup, const lamina_point *points, size_t count);

/// Sorts `count` edges by the band holding their first row drawn (a counting sort, stable)
/// into `sorted`, and writes each band's first place in it to `band_starts[0 ..< bands]`
/// (`band_starts[bands]` = `count`). An edge's first row drawn is its top, or the clip's top
/// `clip_top` (subpixels) when it starts above; band b holds canvas rows `row_first + b << band_shift`
/// onwards. Every edge must start within the bands. Each edge's `band` is set.
void lamina_sort_edges_by_band(lamina_edge *edges, size_t count, lamina_edge *sorted, int32_t *band_starts,
                               size_t bands, int32_t clip_top, ptrdiff_t row_first, int band_shift);

/// Deposits the rows of `count` edges that lie in the band of canvas rows starting at
/// `band_top` and ending at subpixel row `band_bottom` into `band`'s cells and touched bits
/// (each row of an edge adds the exact area right of it, as differences along the row), and
/// copies the edges that go on below the band to `carried` in order; returns how many.
/// `carried` may be `edges` itself (the edges kept never outrun those read).
size_t lamina_deposit_edges(const lamina_band *band, const lamina_edge *edges, size_t count, ptrdiff_t band_top,
                            int32_t band_bottom, lamina_edge *carried);
/// lamina_deposit_edges built for any CPU of the architecture. lamina_deposit_edges takes a
/// build for AVX2 and BMI2 where the CPU has them and LAMINA_KERNELS allows AVX2; this one lets
/// a test compare the two on one machine.
size_t lamina_deposit_edges_portable(const lamina_band *band, const lamina_edge *edges, size_t count,
                                     ptrdiff_t band_top, int32_t band_bottom, lamina_edge *carried);

/// One band of the fast rasterizer to sweep into a solid colour under the non-zero rule, with
/// no clip mask.
typedef struct lamina_solid_sweep {
    /// The band; its cells, bits and row bounds are left zero and empty.
    lamina_band band;
    /// The columns drawn, `out_x0 ..< out_x1` (within the target).
    ptrdiff_t out_x0, out_x1;
    /// The target row of band row 0, and how many rows the band has.
    ptrdiff_t y0, rows;
    /// The target's pixels and its row stride in pixels.
    uint32_t *pixels;
    ptrdiff_t stride;
    /// The premultiplied colour.
    uint32_t color;
    /// The kernels to use: 0 portable, 1 AVX2, 2 AVX-512 (as the CPU and LAMINA_KERNELS allow).
    int level;
} lamina_solid_sweep;

/// Sweeps `sweep`'s band: each touched stretch as per-pixel coverage, min(|sum|, full) in 8
/// bits, the stretches between as runs, composited onto the target; clears the cells, bits
/// and row bounds. Bit for bit FixedPointCoverage.sweep with a SolidColorSink and NonZeroRule.
void lamina_sweep_solid_nonzero(const lamina_solid_sweep *sweep);

/// Rows of a shape that are two vertical edges alone (FixedPointCoverage's straight rows),
/// composited in a solid colour with no clip mask: in each row the same two edge pixels and
/// the run between them.
typedef struct lamina_straight_rows {
    /// The first target row, and how many.
    ptrdiff_t y0, rows;
    /// The target's pixels and its row stride in pixels.
    uint32_t *pixels;
    ptrdiff_t stride;
    /// The premultiplied colour.
    uint32_t color;
    /// The kernels to use: 0 portable, 1 AVX2, 2 AVX-512.
    int level;
    /// The edge pixels' columns and 8-bit coverage (0: not drawn; a column drawn otherwise).
    ptrdiff_t left_x, right_x;
    uint32_t left_alpha, right_alpha;
    /// The run between them, `run_x0 ..< run_x1` (empty when not less), at 8-bit coverage
    /// `run_alpha` (1…255).
    ptrdiff_t run_x0, run_x1;
    uint32_t run_alpha;
} lamina_straight_rows;

/// Composites `straight`'s rows: the same pixels as SolidColorSink's `pixel(x:y:alpha:)` for the
/// edge pixels and `run` for the stretch between, bit for bit.
void lamina_fill_straight_rows(const lamina_straight_rows *straight);

/// Hints that `address` will be written soon (a prefetch for write; no effect on results).
static inline void lamina_prefetch_write(const void *address) { __builtin_prefetch(address, 1, 3); }

#endif
