// libinput and libudev for Swift.
#ifndef LAMINA_CINPUT_SHIM_H
#define LAMINA_CINPUT_SHIM_H
#include <libudev.h>
#include <libinput.h>
#endif
