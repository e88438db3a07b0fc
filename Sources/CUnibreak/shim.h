// libunibreak for Swift: line break opportunities by the Unicode line breaking algorithm
// (UAX #14) on UTF-32 text.
#ifndef LAMINA_CUNIBREAK_SHIM_H
#define LAMINA_CUNIBREAK_SHIM_H
#include <linebreak.h>
#endif
