// Fontconfig for Swift: finding an installed face by family and weight.
#ifndef LAMINA_CFONTCONFIG_SHIM_H
#define LAMINA_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
#endif
