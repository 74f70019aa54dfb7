#ifndef REEL_CZLIB_SHIM_H
#define REEL_CZLIB_SHIM_H
/* zlib's one-call compress2 and compressBound (Debian: zlib1g-dev). */
#include <zlib.h>
#endif
