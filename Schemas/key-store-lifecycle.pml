/*
 * Reel's key store life cycle, as a Promela model for spin (Debian package `spin`).
 * The protocol is described in Schemas/ledger-layout.md, "The key store's life cycle".
 *
 *   spin -a key-store-lifecycle.pml && cc -O2 -o pan pan.c && ./pan -m100000
 *     -> "errors: 0": no interleaving of two deletions (each of which may fail before its commit)
 *        and two new keys loses a live key, and no file left in the data directory keeps a
 *        destroyed key.
 *   spin -DLOCKING=0 -a ... (the protocol without keys.lock, as Reel did before):
 *     -> an assertion violation: a key made by a process that opened keys/ around a swap is lost.
 *
 * What is modelled. `keys/` is a directory entry naming one data file and (once a process has
 * opened it) one LMDB lock file. LMDB's own write lock lives in the lock file, so two processes
 * share it only if they opened the same lock file. `mdb_env_open` opens the lock file and the
 * data file by path, one after the other: two steps another process can come between.
 * A file's content is a set of keys (a bit each). Key 0 and key 3 exist at the start and are
 * destroyed by the two deleters; keys 1 and 2 are made by the two creators.
 * A replacement is written fresh from the current file without the destroyed key, swapped in
 * for keys/ (renameat2 RENAME_EXCHANGE: one step; the new directory has no lock file yet), and
 * the old file removed.
 */
#ifndef LOCKING
#define LOCKING 1
#endif

#define NFILES 6
#define NLOCKS 6
#define NONE 255

byte content[NFILES];          /* keys held by each data file (bit k = key k) */
bool removed[NFILES];
byte dirData = 0;              /* the data file keys/ names */
byte dirLock = NONE;           /* the lock file keys/ holds; NONE right after a swap */
byte files = 1;                /* data files made so far */
byte locks = 0;                /* lock files made so far */
bool lmdbLocked[NLOCKS];       /* LMDB's write lock, one per lock file */

/* flock on DATA_DIR/keys.lock: a file that is never replaced */
byte sharedHolders = 0;
bool exclusiveHeld = false;

bool acked[4];                 /* a creator's key made and acknowledged */
byte destroyedKeys = 0;        /* keys whose deletion committed */
byte done = 0;

inline lockShared() {
    if
    :: LOCKING -> atomic { !exclusiveHeld -> sharedHolders++ }
    :: else -> skip
    fi
}
inline unlockShared() {
    if
    :: LOCKING -> sharedHolders--
    :: else -> skip
    fi
}
inline lockExclusive() {
    if
    :: LOCKING -> atomic { !exclusiveHeld && sharedHolders == 0 -> exclusiveHeld = true }
    :: else -> skip
    fi
}
inline unlockExclusive() {
    if
    :: LOCKING -> exclusiveHeld = false
    :: else -> skip
    fi
}

/* mdb_env_open: the lock file, then the data file, by path (two steps). */
inline openFiles(myLock, myData) {
    atomic {
        if
        :: dirLock == NONE -> dirLock = locks; locks++
        :: else -> skip
        fi;
        myLock = dirLock
    };
    myData = dirData
}
inline openKeys(myLock, myData) {
    lockShared();
    openFiles(myLock, myData);
    unlockShared()
}
/* A reopen by a process that holds the exclusive lock already (KeyStore.fresh(locked: true)). */
inline reopenKeys(myLock, myData) {
    openFiles(myLock, myData)
}

inline lmdbWriteLock(l) { atomic { !lmdbLocked[l] -> lmdbLocked[l] = true } }
inline lmdbWriteUnlock(l) { lmdbLocked[l] = false }

/* A new key k: made in the file the process has open, after checking (under the locks) that
   the directory still names it; reopened and tried again if not. */
proctype Creator(byte k) {
    byte myLock, myData;
    openKeys(myLock, myData);
    lockExclusive();
retry:
    lmdbWriteLock(myLock);
    if
    :: myData != dirData ->
        lmdbWriteUnlock(myLock);
        reopenKeys(myLock, myData);
        goto retry
    :: else ->
        content[myData] = content[myData] | (1 << k);
        lmdbWriteUnlock(myLock)
    fi;
    unlockExclusive();
    acked[k] = true;
    done++
}

/* Destroys key k: a replacement written fresh beside keys/ from the current file, swapped in,
   the old file removed. Before keys.lock, the LMDB write lock of the deleter's own file was all
   that kept others out. */
proctype Deleter(byte k) {
    byte myLock, myData, built, old;
    openKeys(myLock, myData);
    lockExclusive();
retry:
    lmdbWriteLock(myLock);
    if
    :: myData != dirData ->
        lmdbWriteUnlock(myLock);
        reopenKeys(myLock, myData);
        goto retry
    :: else -> skip
    fi;
    atomic { built = files; files++ };
    content[built] = content[myData] & ~(1 << k);   /* a snapshot of the file, without key k */
    if
    :: true ->   /* the ledger transaction of the deletion commits: swap, then remove the old */
        atomic { old = dirData; dirData = built; dirLock = NONE; destroyedKeys = destroyedKeys | (1 << k) };
        removed[old] = true
    :: true ->   /* it fails (a full disk): the replacement is removed unused, nothing changed */
        removed[built] = true
    fi;
    lmdbWriteUnlock(myLock);
    unlockExclusive();
    done++
}

init {
    content[0] = (1 << 0) | (1 << 3);
    atomic {
        run Deleter(0);
        run Deleter(3);
        run Creator(1);
        run Creator(2)
    }
    done == 4;
    /* Every acknowledged key is in the file keys/ names. */
    assert(!acked[1] || (content[dirData] & (1 << 1)) != 0);
    assert(!acked[2] || (content[dirData] & (1 << 2)) != 0);
    /* Keys not deleted are still there; deleted keys are in no file that is not removed. */
    assert((content[dirData] & ((1 << 0) | (1 << 3))) == (((1 << 0) | (1 << 3)) & ~destroyedKeys));
    byte f = 0;
    do
    :: f < files ->
        assert(removed[f] || (content[f] & destroyedKeys) == 0);
        f++
    :: else -> break
    od
}
