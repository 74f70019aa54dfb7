#ifndef REEL_CLMDB_SHIM_H
#define REEL_CLMDB_SHIM_H
#include <lmdb.h>

#if MDB_VERSION_FULL < MDB_VERINT(0, 9, 24)
#error "Reel needs LMDB 0.9.24 or newer (Debian: apt-get install liblmdb-dev)"
#endif

#endif
