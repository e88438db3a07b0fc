// PNG encode/decode through libpng. libpng reports errors by longjmp, which Swift
// cannot catch, so the setjmp lives here and each call returns 0 or a negative code
// with a message in `error` (NUL-terminated, at most error_size bytes).
#ifndef LAMINA_PNG_H
#define LAMINA_PNG_H
#include <stddef.h>
#include <stdint.h>

/// Writes 8-bit RGB (channels 3) or RGBA (channels 4) rows to `path`.
/// `rows` points at `height` rows of `stride` bytes. `compression` is zlib's 0..9.
int lamina_png_write(const char *path, const uint8_t *rows, uint32_t width, uint32_t height,
                     size_t stride, int channels, int compression,
                     char *error, size_t error_size);

/// Reads `path` as 8-bit straight RGBA. On success `*pixels` is a malloc'd buffer of
/// width * height * 4 bytes that the caller frees with lamina_png_free.
int lamina_png_read_rgba(const char *path, uint8_t **pixels, uint32_t *width, uint32_t *height,
                         char *error, size_t error_size);

void lamina_png_free(void *pixels);

#endif
