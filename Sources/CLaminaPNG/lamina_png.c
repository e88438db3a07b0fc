#include "lamina_png.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Matches GeometryLimits.maximumDimension and .maximumPixels (LaminaGeometry). */
#define LAMINA_PNG_MAX_DIMENSION 16384
#define LAMINA_PNG_MAX_PIXELS (64u * 1024u * 1024u)

struct lamina_png_error {
    jmp_buf jump;
    char *message;
    size_t size;
};

static void lamina_png_on_error(png_structp png, png_const_charp message) {
    struct lamina_png_error *state = png_get_error_ptr(png);
    if (state->message && state->size > 0) {
        snprintf(state->message, state->size, "%s", message);
    }
    longjmp(state->jump, 1);
}

static void lamina_png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void set_error(char *error, size_t size, const char *text) {
    if (error && size > 0) snprintf(error, size, "%s", text);
}

/* The encoder's output: a malloc'd buffer grown as libpng writes. */
struct lamina_png_sink {
    uint8_t *bytes;
    size_t count, capacity;
};

static void lamina_png_sink_write(png_structp png, png_bytep data, png_size_t length) {
    struct lamina_png_sink *sink = png_get_io_ptr(png);
    if (sink->count + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 65536;
        while (capacity < sink->count + length) capacity *= 2;
        uint8_t *grown = realloc(sink->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->count, data, length);
    sink->count += length;
}

static void lamina_png_sink_flush(png_structp png) { (void)png; }

int lamina_png_encode(const uint8_t *rows, uint32_t width, uint32_t height,
                      size_t stride, int channels, int compression,
                      uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    if (channels != 3 && channels != 4) {
        set_error(error, error_size, "channels must be 3 or 4");
        return -1;
    }
    struct lamina_png_error state = { .message = error, .size = error_size };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state,
                                              lamina_png_on_error, lamina_png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        set_error(error, error_size, "out of memory");
        return -3;
    }
    struct lamina_png_sink sink = { NULL, 0, 0 };
    if (setjmp(state.jump)) {
        png_destroy_write_struct(&png, &info);
        free(sink.bytes);
        return -4;
    }
    png_set_write_fn(png, &sink, lamina_png_sink_write, lamina_png_sink_flush);
    png_set_compression_level(png, compression);
    png_set_IHDR(png, info, width, height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rows + (size_t)y * stride));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = sink.bytes;
    *out_size = sink.count;
    return 0;
}

/* The decoder's input: bytes already read (the caller opened the file, non-blocking). */
struct lamina_png_source {
    const uint8_t *bytes;
    size_t count, offset;
};

static void lamina_png_source_read(png_structp png, png_bytep data, png_size_t length) {
    struct lamina_png_source *source = png_get_io_ptr(png);
    if (length > source->count - source->offset) png_error(png, "the file ends early");
    memcpy(data, source->bytes + source->offset, length);
    source->offset += length;
}

int lamina_png_decode_rgba(const uint8_t *data, size_t size, uint64_t max_pixels,
                           uint8_t **pixels, uint32_t *width, uint32_t *height,
                           char *error, size_t error_size) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        set_error(error, error_size, "not a PNG file (no PNG signature)");
        return -2;
    }
    /* The size is refused from the IHDR chunk, which must come first (PNG spec 5.6), before
       libpng reads on to the image data. */
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        uint32_t w = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
        uint32_t h = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
        uint64_t limit = max_pixels < LAMINA_PNG_MAX_PIXELS ? max_pixels : LAMINA_PNG_MAX_PIXELS;
        if ((uint64_t)w * h > limit) {
            *width = w;
            *height = h;
            snprintf(error, error_size, "%ux%u is more than the %llu pixels allowed", w, h, (unsigned long long)limit);
            return -5;
        }
    }
    struct lamina_png_error state = { .message = error, .size = error_size };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state,
                                             lamina_png_on_error, lamina_png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        set_error(error, error_size, "out of memory");
        return -3;
    }
    struct lamina_png_source source = { data, size, 0 };
    uint8_t *volatile buffer = NULL;
    if (setjmp(state.jump)) {
        free(buffer);
        png_destroy_read_struct(&png, &info, NULL);
        return -4;
    }
    png_set_read_fn(png, &source, lamina_png_source_read);
    /* A hostile header cannot ask for more than Lamina's largest buffer (decision 86). */
    png_set_user_limits(png, LAMINA_PNG_MAX_DIMENSION, LAMINA_PNG_MAX_DIMENSION);
    png_read_info(png, info);
    uint64_t pixel_count = (uint64_t)png_get_image_width(png, info) * png_get_image_height(png, info);
    if (pixel_count > LAMINA_PNG_MAX_PIXELS || pixel_count > max_pixels) {
        /* Refused from the header: nothing has been decoded or allocated for the pixels. */
        *width = png_get_image_width(png, info);
        *height = png_get_image_height(png, info);
        snprintf(error, error_size, "%ux%u is more than the %llu pixels allowed",
                 *width, *height, (unsigned long long)(max_pixels < LAMINA_PNG_MAX_PIXELS ? max_pixels : LAMINA_PNG_MAX_PIXELS));
        png_destroy_read_struct(&png, &info, NULL);
        return -5;
    }
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    uint32_t w = png_get_image_width(png, info);
    uint32_t h = png_get_image_height(png, info);
    size_t row_bytes = (size_t)w * 4;
    buffer = malloc(row_bytes * h);
    if (!buffer) png_error(png, "out of memory");
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < h; y++) {
            png_read_row(png, buffer + (size_t)y * row_bytes, NULL);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    *pixels = buffer;
    *width = w;
    *height = h;
    return 0;
}

void lamina_png_free(void *pixels) { free(pixels); }
