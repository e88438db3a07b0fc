// Linux headers Swift's Glibc module does not export.
#ifndef LAMINA_CLINUX_SHIM_H
#define LAMINA_CLINUX_SHIM_H
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/ioctl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/fb.h>

/// ioctl with an integer argument (Swift cannot call the variadic form with a value).
static inline int lamina_ioctl_value(int fd, unsigned long request, unsigned long value) {
    return ioctl(fd, request, value);
}
#endif
