#ifndef REEL_CLMDB_SHIM_H
#define REEL_CLMDB_SHIM_H
#include <lmdb.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if MDB_VERSION_FULL < MDB_VERINT(0, 9, 24)
#error "Reel needs LMDB 0.9.24 or newer (Debian: apt-get install liblmdb-dev)"
#endif

/// Swaps two directory entries atomically (Linux renameat2 with RENAME_EXCHANGE), so an
/// environment's directory can be replaced by a rewritten one with no moment where it is missing.
/// Returns 0, or -1 with errno (EINVAL or ENOSYS where the file system or kernel lacks it).
static inline int reel_exchange_paths(const char *first, const char *second) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2u /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

#endif
