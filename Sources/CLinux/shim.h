// Linux headers Swift's Glibc module does not export.
#ifndef LAMINA_CLINUX_SHIM_H
#define LAMINA_CLINUX_SHIM_H
#include <signal.h>
#include <sys/signalfd.h>
#endif
