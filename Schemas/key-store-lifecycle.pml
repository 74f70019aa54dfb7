/*
 * Reel's key store life cycle, as a Promela model for spin (Debian package `spin`).
 * The protocol is described in Schemas/ledger-layout.md, "The key store's life cycle".
 *
 *   spin -a key-store-lifecycle.pml && cc -O2 -o pan pan.c && ./pan -m100000
 *     -> "errors: 0": no interleaving of two deletions (each of which may fail before its commit,
 *        or be killed after any step) and two new keys, followed by the next command, loses a
 *        live key, leaves a destroyed key in a file in the data directory, or leaves a KEK in the
 *        keyring that opens a deleted key in any copy of any file.
 *   spin -DLOCKING=0 -a ... (the protocol without keys.lock, as Reel did before):
 *     -> an assertion violation: a key made by a process that opened keys/ around a swap is lost,
 *        or made under a KEK a replacement running meanwhile retired.
 *   spin -DRETIRE=0 -a ... (the keyring keeps the generations a replacement leaves behind):
 *     -> an assertion violation: a copy of a file from before a deletion (a backup) still opens
 *        the deleted key under a KEK the keyring holds.
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
 *
 * The keyring ("The keyring" in ledger-layout.md). Each data file's keys are wrapped under one
 * KEK (`kek[f]`, `meta/kek`); the keyring file holds a set of KEKs (`ring`, a bit each; a KEK
 * number stands for one random key, so a generation number a stopped rotation left and the next
 * one reused is another number here). A replacement puts a new KEK in the ring beside the
 * current one, writes the new file under it, commits, swaps, removes the old file, then leaves
 * the new KEK alone in the ring, and only then records the deletion as done. A deleter may stop
 * (be killed) after any step once it holds the locks, or fail before its commit (a full disk:
 * the replacement and the new KEK are taken back). The next process to change the key store
 * under the exclusive lock (a creator, and the closing `Recover` run here) clears leftovers,
 * drops the KEKs older than the current file's, and finishes a committed deletion. A removed
 * data file stands for every copy ever made of it: a backup, a snapshot, a file copy. Checked:
 * no acknowledged key is lost; the current file always opens; once a deletion is recorded as
 * done, no file, removed or not, that holds the key is wrapped under a KEK the ring holds.
 */
#ifndef LOCKING
#define LOCKING 1
#endif
#ifndef RETIRE
#define RETIRE 1
#endif

#define NFILES 8
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
byte doneKeys = 0;             /* keys whose deletion is recorded as done */
byte done = 0;

byte kek[NFILES];              /* the KEK each data file's keys are wrapped under */
byte ring = 1;                 /* the KEKs the keyring holds (bit n = KEK n); KEK 0 at the start */
byte keks = 1;                 /* KEKs made so far */

/* Once a deletion is recorded as done, no file (removed or not: every copy of it) holding its
   key is wrapped under a KEK that exists. */
inline checkForgotten(g) {
    atomic {
        g = 0;
        do
        :: g < files ->
            assert((content[g] & doneKeys) == 0 || (ring & (1 << kek[g])) == 0);
            g++
        :: else -> break
        od
    }
}

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

/* The keyring after a stopped replacement (under the exclusive lock): the KEKs older than the
   current file's go (RETIRE), the current one stays. */
inline dropRetired() {
    if
    :: RETIRE -> ring = ring & ~((1 << kek[dirData]) - 1)
    :: else -> skip
    fi
}

/* Leftovers of a stopped replacement (keys.next/: a replacement not swapped in, or the old file
   after the swap) are removed, under the exclusive lock. */
inline clearLeftovers(l) {
    l = 0;
    do
    :: l < files ->
        if
        :: l != dirData -> removed[l] = true
        :: else -> skip
        fi;
        l++
    :: else -> break
    od
}

/* A new key k: made in the file the process has open, after checking (under the locks) that
   the directory still names it; reopened and tried again if not. */
proctype Creator(byte k) {
    byte myLock, myData, g;
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
        /* A writable open clears leftovers and drops retired KEKs; the key is wrapped under the
           current file's KEK, which the keyring must hold. */
        clearLeftovers(g);
        dropRetired();
        assert((ring & (1 << kek[myData])) != 0);
        content[myData] = content[myData] | (1 << k);
        lmdbWriteUnlock(myLock)
    fi;
    unlockExclusive();
    acked[k] = true;
    done++
}

/* Destroys key k by a replacement of keys/ and a rotation of the keyring. `stops`: the process
   may be killed after any step (it then holds no lock). The ledger commit is `destroyedKeys`. */
inline replace(k, myLock, myData, built, old, new, stops, committed, g) {
    atomic { new = keks; keks++ };
    ring = ring | (1 << new);                                   /* 1. the new KEK beside the old */
    if :: stops -> goto stopped :: true -> skip fi;
    atomic { built = files; files++ };
    content[built] = content[myData] & ~(1 << k);               /* 2. keys.next/, under the new KEK */
    kek[built] = new;
    if :: stops -> goto stopped :: true -> skip fi;
    if
    :: committed -> skip                                       /* the ledger committed earlier */
    :: !committed ->
        if
        :: true -> destroyedKeys = destroyedKeys | (1 << k)     /* the ledger transaction commits */
        :: true ->                                             /* it fails (a full disk): nothing changed */
            removed[built] = true;
            ring = ring & ~(1 << new);
            goto released
        fi
    fi;
    if :: stops -> goto stopped :: true -> skip fi;
    atomic { old = dirData; dirData = built; dirLock = NONE };  /* 3. swapped in */
    if :: stops -> goto stopped :: true -> skip fi;
    removed[old] = true;                                        /*    the old file removed */
    if :: stops -> goto stopped :: true -> skip fi;
    if                                                          /* 4. the new KEK alone */
    :: RETIRE -> ring = 1 << new
    :: else -> skip
    fi;
    if :: stops -> goto stopped :: true -> skip fi;
    doneKeys = doneKeys | (1 << k);                             /* recorded as done */
    checkForgotten(g)
}

proctype Deleter(byte k) {
    byte myLock, myData, built, old, new, g;
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
    replace(k, myLock, myData, built, old, new, true, false, g);
released:
    lmdbWriteUnlock(myLock);
    unlockExclusive();
    done++;
    goto end;
stopped:   /* killed: the kernel releases its locks */
    lmdbWriteUnlock(myLock);
    unlockExclusive();
    done++;
end:
    skip
}

/* The next command after everything (the model's last step): under the exclusive lock, it clears
   leftovers, drops retired KEKs and finishes every committed deletion not recorded as done. */
proctype Recover() {
    byte myLock, myData, built, old, new, k, g;
    openKeys(myLock, myData);
    lockExclusive();
    reopenKeys(myLock, myData);
    lmdbWriteLock(myLock);
    clearLeftovers(g);
    dropRetired();
    k = 0;
    do
    :: k < 4 ->
        if
        :: (destroyedKeys & ~doneKeys & (1 << k)) != 0 && (content[dirData] & (1 << k)) != 0 ->
            myData = dirData;
            replace(k, myLock, myData, built, old, new, false, true, g)
        :: (destroyedKeys & ~doneKeys & (1 << k)) != 0 && (content[dirData] & (1 << k)) == 0 ->
            doneKeys = doneKeys | (1 << k);                     /* destroyed; the KEK dropped above */
            checkForgotten(g)
        :: else -> skip
        fi;
        k++
    :: else -> break
    od;
released:
stopped:
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
    run Recover();
    done == 5;
    /* Every acknowledged key is in the file keys/ names, and the keyring opens it. */
    assert((ring & (1 << kek[dirData])) != 0);
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
    od;
    /* Every committed deletion is done, and no copy of any file opens its key. */
    assert(doneKeys == destroyedKeys);
    checkForgotten(f)
}
