// xkbcommon for Swift: keymaps from layout names and the keyboard state machine.
#ifndef LAMINA_CXKBCOMMON_SHIM_H
#define LAMINA_CXKBCOMMON_SHIM_H
#include <xkbcommon/xkbcommon.h>
#endif
