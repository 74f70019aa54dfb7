#ifndef REEL_CCHAFA_SHIM_H
#define REEL_CCHAFA_SHIM_H
/* libchafa 1.12 (Debian: libchafa-dev, which needs libglib2.0-dev for its headers). */
#include <chafa.h>
#include <glib.h>

/* g_string_free is a macro in newer glib; a function Swift can always call. */
static inline void reel_g_string_free(GString *s) { g_string_free(s, TRUE); }
#endif
