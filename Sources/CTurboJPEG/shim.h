#ifndef REEL_CTURBOJPEG_SHIM_H
#define REEL_CTURBOJPEG_SHIM_H
/* libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev, version 2.1: tjInitDecompress,
   tjDecompressHeader3, tjDecompress2, tjCompress2). */
#include <stddef.h>
#include <turbojpeg.h>
#endif
