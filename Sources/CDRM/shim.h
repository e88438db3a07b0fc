// libdrm for Swift: the library headers plus the constants Swift cannot import
// (function-like macros such as fourcc_code), as static inline functions.
#ifndef LAMINA_CDRM_SHIM_H
#define LAMINA_CDRM_SHIM_H
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/// DRM_FORMAT_XRGB8888: little-endian 32-bit, bytes B, G, R, X in memory.
static inline uint32_t lamina_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
/// DRM_FORMAT_RGB565: little-endian 16-bit, R 15-11, G 10-5, B 4-0.
static inline uint32_t lamina_drm_format_rgb565(void) { return DRM_FORMAT_RGB565; }
/// DRM_IOCTL_MODE_CREATE_DUMB, a macro built from _IOWR.
static inline unsigned long lamina_drm_ioctl_mode_create_dumb(void) { return DRM_IOCTL_MODE_CREATE_DUMB; }
/// DRM_IOCTL_MODE_MAP_DUMB.
static inline unsigned long lamina_drm_ioctl_mode_map_dumb(void) { return DRM_IOCTL_MODE_MAP_DUMB; }
/// DRM_IOCTL_MODE_DESTROY_DUMB.
static inline unsigned long lamina_drm_ioctl_mode_destroy_dumb(void) { return DRM_IOCTL_MODE_DESTROY_DUMB; }

#endif
