#ifndef REEL_CPNG_SHIM_H
#define REEL_CPNG_SHIM_H
/* libpng's simplified API (png_image_begin_read_from_memory, png_image_finish_read,
   png_image_write_to_memory), which needs no setjmp: errors come back as a flag and a message. */
#include <stddef.h>
#include <string.h>
#include <png.h>

/* PNG_IMAGE_SIZE and PNG_IMAGE_ROW_STRIDE are macros Swift does not import. */
static inline size_t reel_png_image_row_stride(const png_image *image) {
    return (size_t)PNG_IMAGE_ROW_STRIDE(*image);
}

/* The simplified API's constants are built by macros Swift may not import. */
static const unsigned int reel_png_image_version = PNG_IMAGE_VERSION;
static const unsigned int reel_png_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int reel_png_image_warning = PNG_IMAGE_WARNING;
static const unsigned int reel_png_image_error = PNG_IMAGE_ERROR;
#endif
