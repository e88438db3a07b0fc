// FreeType for Swift: the library header (included through its macro in C) and the load
// flags Swift cannot import because they are built from macros.
#ifndef LAMINA_CFREETYPE_SHIM_H
#define LAMINA_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

/// Outlines in font units scaled to the size, no hinting, no embedded bitmaps.
static inline int32_t lamina_ft_load_flags_unhinted(void) { return FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP; }
/// A colour bitmap glyph (an emoji strike) as premultiplied BGRA.
static inline int32_t lamina_ft_load_flags_color(void) { return FT_LOAD_COLOR; }
#endif
