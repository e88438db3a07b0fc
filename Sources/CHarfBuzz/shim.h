// HarfBuzz for Swift: the shaping API and its OpenType font functions (the face read from
// the font file by HarfBuzz itself, as `hb-shape` reads it).
#ifndef LAMINA_CHARFBUZZ_SHIM_H
#define LAMINA_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>
#endif
