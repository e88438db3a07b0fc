// libudev for Swift: the display hotplug monitor (subsystem drm, HOTPLUG=1 uevents).
#ifndef LAMINA_CUDEV_SHIM_H
#define LAMINA_CUDEV_SHIM_H
#include <libudev.h>
#endif
