// PNG encode/decode through libpng. libpng reports errors by longjmp, which Swift
// cannot catch, so the setjmp lives here and each call returns 0 or a negative code
// with a message in `error` (NUL-terminated, at most error_size bytes).
#ifndef LAMINA_PNG_H
#define LAMINA_PNG_H
#include <stddef.h>
#include <stdint.h>

/// Encodes 8-bit RGB (channels 3) or RGBA (channels 4) rows as a PNG in memory.
/// `rows` points at `height` rows of `stride` bytes. `compression` is zlib's 0..9. On
/// success `*out` is a malloc'd buffer of `*out_size` bytes that the caller frees with
/// lamina_png_free. (The caller writes it: how a file is opened is Lamina's, not libpng's.)
int lamina_png_encode(const uint8_t *rows, uint32_t width, uint32_t height,
                      size_t stride, int channels, int compression,
                      uint8_t **out, size_t *out_size, char *error, size_t error_size);

/// Decodes the PNG in `data` as 8-bit straight RGBA. An image of more than `max_pixels`
/// (or Lamina's largest buffer) is refused from its header, before anything is decoded:
/// the return is then -5 and `*width`, `*height` say its size. On success `*pixels` is a
/// malloc'd buffer of width * height * 4 bytes that the caller frees with lamina_png_free.
int lamina_png_decode_rgba(const uint8_t *data, size_t size, uint64_t max_pixels,
                           uint8_t **pixels, uint32_t *width, uint32_t *height,
                           char *error, size_t error_size);

void lamina_png_free(void *pixels);

#endif
