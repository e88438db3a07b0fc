// GNU FriBidi for Swift: the Unicode bidirectional algorithm (UAX #9) on UTF-32 text.
#ifndef LAMINA_CFRIBIDI_SHIM_H
#define LAMINA_CFRIBIDI_SHIM_H
#include <fribidi.h>

/// The paragraph direction FriBidi resolves from the text's first strong character.
static inline FriBidiParType lamina_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }
/// A paragraph forced left to right.
static inline FriBidiParType lamina_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
/// A paragraph forced right to left.
static inline FriBidiParType lamina_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
#endif
