// The fast rasterizer's edge set-up (LaminaRaster's FixedPointCoverage.EdgeBuilder): a
// polygon's points rounded to subpixels and turned into edge records, top to bottom, with the
// slope and per-column area the deposits use. In C beside the deposits (decision 164): the
// Swift loop stored its count and extent back after every edge, which it could not prove
// apart from the records it wrote, and checked each conversion and sum for overflow that the
// reach box already rules out.
#include "lamina_kernels.h"
#include <math.h>
#include <string.h>

// The same products on every machine: never fused into one (arm64 has the instruction).
#pragma STDC FP_CONTRACT OFF

enum { subpixel_shift = 8 };

/* v · 256 rounded to nearest, ties to even, as LaminaRaster's roundedInt32 (|v · 256| < 2³¹). */
static inline int32_t subpixels(double v) {
    double shifted = v * 256 + 6755399441055744.0;
    uint64_t bits;
    memcpy(&bits, &shifted, sizeof bits);
    return (int32_t)(uint32_t)bits;
}

typedef struct subpixel_point {
    int32_t x, y;
} subpixel_point;

/* A copy of the set-up's description and extent, so the stores into the records do not make
 * the compiler read them again. */
typedef struct edge_state {
    lamina_edge *edges;
    size_t count;
    int32_t min_x, max_x, min_y, max_y, dropped_right;
    int32_t clip_top, clip_bottom, clip_right, right;
} edge_state;

static inline int32_t min32(int32_t a, int32_t b) { return b < a ? b : a; }
static inline int32_t max32(int32_t a, int32_t b) { return b > a ? b : a; }

/* One edge whose x lies within the canvas columns, if it reaches the rows drawn. */
static inline void add_edge(edge_state *s, subpixel_point a, subpixel_point b) {
    if (a.y == b.y) return;
    const int down = a.y < b.y;
    const subpixel_point top = down ? a : b, bottom = down ? b : a;
    if (!(bottom.y > s->clip_top && top.y < s->clip_bottom)) return;
    if (!(min32(top.x, bottom.x) < s->clip_right)) {
        s->dropped_right = 1;
        return;
    }
    const double dx = (double)(bottom.x - top.x), dy = (double)(bottom.y - top.y);
    // dx/dy and |dy/dx| from one division.
    const double reciprocal = 1 / (dx * dy);
    // Past 2⁴² the edge is so steep that no row of it reaches a second column by more than a
    // subpixel, where the per-column deposit is not used at full size.
    const double per_column = 8589934592.0 * dy * dy * fabs(reciprocal), limit = 4398046511104.0;
    lamina_edge *edge = s->edges + s->count++;
    edge->x0 = top.x;
    edge->y0 = top.y;
    edge->x1 = bottom.x;
    edge->y1 = bottom.y;
    edge->direction = down ? 1 : -1;
    edge->band = 0;
    edge->slope = dx == 0 ? 0 : dx * dx * reciprocal;
    edge->per_column = dx == 0 ? 0 : (int64_t)(limit < per_column ? limit : per_column);
    s->min_x = min32(s->min_x, min32(top.x, bottom.x));
    s->max_x = max32(s->max_x, max32(top.x, bottom.x));
    s->min_y = min32(s->min_y, max32(top.y, s->clip_top));
    s->max_y = max32(s->max_y, min32(bottom.y, s->clip_bottom));
}

/* Where the edge a → b crosses x = boundary (strictly inside it), y rounded half away from zero. */
static subpixel_point crossing(subpixel_point a, subpixel_point b, int32_t boundary) {
    const double t = (double)(boundary - a.x) / (double)(b.x - a.x);
    return (subpixel_point){boundary, a.y + (int32_t)round((double)(b.y - a.y) * t)};
}

static inline subpixel_point clamped(const edge_state *s, subpixel_point p) {
    return (subpixel_point){p.x < 0 ? 0 : p.x > s->right ? s->right : p.x, p.y};
}

/* The part of an edge from `*start` to `end`, x clamped; `*start` moves on to `end`. */
static inline void add_part(edge_state *s, subpixel_point *start, subpixel_point end) {
    add_edge(s, clamped(s, *start), clamped(s, end));
    *start = end;
}

/* An edge past a side of the canvas: each part, from cut to cut, added with x clamped (the part
 * left of the canvas still covers every pixel to its right). */
static void add_edge_crossing_sides(edge_state *s, subpixel_point a, subpixel_point b) {
    const int crosses_left = (a.x < 0) != (b.x < 0), crosses_right = (a.x > s->right) != (b.x > s->right);
    subpixel_point start = a;
    if (a.x < b.x) {
        if (crosses_left) add_part(s, &start, crossing(a, b, 0));
        if (crosses_right) add_part(s, &start, crossing(a, b, s->right));
    } else {
        if (crosses_right) add_part(s, &start, crossing(a, b, s->right));
        if (crosses_left) add_part(s, &start, crossing(a, b, 0));
    }
    add_part(s, &start, b);
}

int lamina_add_polygon_edges(lamina_edge_setup *setup, const lamina_point *points, size_t count) {
    if (count == 0) return 1;
    const double x0 = setup->reach_x0, y0 = setup->reach_y0, x1 = setup->reach_x1, y1 = setup->reach_y1;
    edge_state s = {setup->edges, setup->count, setup->min_x, setup->max_x, setup->min_y, setup->max_y,
                    setup->dropped_right, setup->clip_top, setup->clip_bottom, setup->clip_right, setup->right};
    int within = 1;
    const lamina_point last = points[count - 1];
    // Written so NaN fails too.
    if (!(last.x >= x0 && last.x <= x1 && last.y >= y0 && last.y <= y1)) {
        within = 0;
    } else {
        subpixel_point previous = {subpixels(last.x), subpixels(last.y)};
        for (size_t i = 0; i < count; i++) {
            const lamina_point p = points[i];
            if (!(p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1)) {
                within = 0;
                break;
            }
            const subpixel_point current = {subpixels(p.x), subpixels(p.y)};
            if (current.y != previous.y) {
                if (previous.x >= 0 && previous.x <= s.right && current.x >= 0 && current.x <= s.right) {
                    add_edge(&s, previous, current);
                } else {
                    add_edge_crossing_sides(&s, previous, current);
                }
            }
            previous = current;
        }
    }
    setup->count = s.count;
    setup->min_x = s.min_x;
    setup->max_x = s.max_x;
    setup->min_y = s.min_y;
    setup->max_y = s.max_y;
    setup->dropped_right = s.dropped_right;
    return within;
}

void lamina_sort_edges_by_band(lamina_edge *edges, size_t count, lamina_edge *sorted, int32_t *band_starts,
                               size_t bands, int32_t clip_top, ptrdiff_t row_first, int band_shift) {
    memset(band_starts, 0, (bands + 1) * sizeof *band_starts);
    for (size_t i = 0; i < count; i++) {
        const int32_t top = (edges[i].y0 > clip_top ? edges[i].y0 : clip_top) >> subpixel_shift;
        const int32_t band = (int32_t)(((ptrdiff_t)top - row_first) >> band_shift);
        edges[i].band = band;
        band_starts[band + 1]++;
    }
    for (size_t b = 0; b < bands; b++) band_starts[b + 1] += band_starts[b];
    // While filling, a band's start is its next free place; filling moves each up to its end.
    for (size_t i = 0; i < count; i++) sorted[band_starts[edges[i].band]++] = edges[i];
    for (size_t b = bands; b > 0; b--) band_starts[b] = band_starts[b - 1];
    band_starts[0] = 0;
}
