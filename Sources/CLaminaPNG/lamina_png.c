#include "lamina_png.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

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

int lamina_png_write(const char *path, const uint8_t *rows, uint32_t width, uint32_t height,
                     size_t stride, int channels, int compression,
                     char *error, size_t error_size) {
    if (channels != 3 && channels != 4) {
        set_error(error, error_size, "channels must be 3 or 4");
        return -1;
    }
    FILE *file = fopen(path, "wb");
    if (!file) {
        set_error(error, error_size, strerror(errno));
        return -2;
    }
    struct lamina_png_error state = { .message = error, .size = error_size };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state,
                                              lamina_png_on_error, lamina_png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        fclose(file);
        set_error(error, error_size, "out of memory");
        return -3;
    }
    if (setjmp(state.jump)) {
        png_destroy_write_struct(&png, &info);
        fclose(file);
        return -4;
    }
    png_init_io(png, file);
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
    if (fclose(file) != 0) {
        set_error(error, error_size, strerror(errno));
        return -5;
    }
    return 0;
}

int lamina_png_read_rgba(const char *path, uint8_t **pixels, uint32_t *width, uint32_t *height,
                         char *error, size_t error_size) {
    *pixels = NULL;
    FILE *file = fopen(path, "rb");
    if (!file) {
        set_error(error, error_size, strerror(errno));
        return -2;
    }
    struct lamina_png_error state = { .message = error, .size = error_size };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state,
                                             lamina_png_on_error, lamina_png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        set_error(error, error_size, "out of memory");
        return -3;
    }
    uint8_t *volatile buffer = NULL;
    if (setjmp(state.jump)) {
        free(buffer);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        return -4;
    }
    png_init_io(png, file);
    /* A hostile header cannot ask for more than Lamina's largest buffer (decision 86). */
    png_set_user_limits(png, LAMINA_PNG_MAX_DIMENSION, LAMINA_PNG_MAX_DIMENSION);
    png_read_info(png, info);
    if ((uint64_t)png_get_image_width(png, info) * png_get_image_height(png, info) > LAMINA_PNG_MAX_PIXELS) {
        png_error(png, "image larger than 67108864 pixels");
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
    fclose(file);
    *pixels = buffer;
    *width = w;
    *height = h;
    return 0;
}

void lamina_png_free(void *pixels) { free(pixels); }
