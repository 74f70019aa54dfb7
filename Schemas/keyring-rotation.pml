/*
 * The PostgreSQL store's key hierarchy (Schemas/postgres-layout.md, "Keys that can be
 * destroyed"), as a Promela model for spin; the companion of key-store-lifecycle.pml (the LMDB
 * key store's life cycle).
 *
 *   spin -a keyring-rotation.pml && cc -O2 -o pan pan.c && ./pan -m100000
 *     -> "errors: 0": no interleaving of two deletions (each of whose rotations may stop before or
 *        after its commit, finished later by a process that opens the store), two processes
 *        storing new keys and a process opening the store loses a live key (every stored key's
 *        generation is in the keyring file), and once a deletion's rotation is done, no generation
 *        its key was ever wrapped under is left in the file.
 *   spin -DGUARD=0 -a ... (a key stored without holding the keyring's record FOR SHARE and
 *        checking its generation): -> an assertion violation: a key stored under a generation a
 *        rotation is leaving behind is lost.
 *
 * What is modelled. reel_keyring's record: the current generation `gen`, and its row lock
 * (FOR SHARE by key inserts, FOR UPDATE by a rotation). reel_head's row lock (`headLocked`),
 * taken by a deletion's closing transaction and by a rotation. Each stream's key row: the
 * generation it is wrapped under (0: no row). The keyring file: a set of generations (bit g),
 * replaced whole by each write. flock on STORE.lock around a rotation and the open's repair.
 * Streams 0 and 3 are deleted; 1 and 2 get new keys.
 */
#ifndef GUARD
#define GUARD 1
#endif
#define NGEN 6

byte gen = 1;
byte shareHolders = 0;
bool recordLocked = false;
bool headLocked = false;
bool flocked = false;
byte fileKeys = 2;             /* bit g: the file holds generation g's key; generation 1 at the start */
byte rowGen[4];                /* the generation each stream's key row is wrapped under; 0: no row */
byte everWrapped[4];           /* bit g: the stream's key was stored under generation g at some time */
bool pending[4];               /* purge_pending: the row deleted, the old generations not yet gone */
bool purged[4];                /* a rotation covering the deletion has removed the old generation */
byte done = 0;

/* A rotation: a new generation beside the current one in the file, one transaction that rewraps
 * every row and moves the record on, then the old generation removed from the file. It may stop
 * anywhere; what it left is finished by a later one (and the open's repair). */
inline rotate() {
    atomic { !flocked -> flocked = true }
    g = gen;
    assert(fileKeys & (1 << g));
    if
    :: g + 1 < NGEN ->
        fileKeys = (1 << g) | (1 << (g + 1));
        if
        :: skip
        :: goto unlock            /* stopped before its transaction */
        fi;
        atomic { !headLocked -> headLocked = true };
        atomic { !recordLocked && shareHolders == 0 -> recordLocked = true };
        covered = 0;
        atomic {
            if
            :: gen == g ->
                s = 0;
                do
                :: s < 4 ->
                    if
                    :: rowGen[s] != 0 -> assert(rowGen[s] == g); rowGen[s] = g + 1; everWrapped[s] = everWrapped[s] | (1 << (g + 1))
                    :: else -> skip
                    fi;
                    if
                    :: pending[s] -> covered = covered | (1 << s)
                    :: else -> skip
                    fi;
                    s++
                :: else -> break
                od;
                gen = g + 1
            :: else -> skip
            fi;
            recordLocked = false;
            headLocked = false
        };
        if
        :: gen == g + 1 ->
            if
            :: skip
            :: goto unlock        /* stopped after its commit: the old generation is still in the file */
            fi;
            fileKeys = 1 << (g + 1);
            s = 0;
            do
            :: s < 4 -> if :: covered & (1 << s) -> pending[s] = false; purged[s] = true :: else -> skip fi; s++
            :: else -> break
            od
        :: else -> skip
        fi
    :: else -> skip               /* the model's bound on generations */
    fi;
unlock:
    flocked = false
}

proctype Creator(byte k) {
    byte mine;
    /* Its open: the record's generation, then that generation's key from the file; a file that has
     * moved past it (a rotation in between) sends it back to the record. */
    do
    :: mine = gen;
       if
       :: fileKeys & (1 << mine) -> break
       :: else -> assert((fileKeys >> (mine + 1)) != 0)
       fi
    od;
retry:
#if GUARD
    atomic { !recordLocked -> shareHolders++ };
    if
    :: gen == mine ->
        rowGen[k] = mine; everWrapped[k] = everWrapped[k] | (1 << mine); shareHolders--
    :: else ->
        shareHolders--;
        do
        :: mine = gen;
           if
           :: fileKeys & (1 << mine) -> break
           :: else -> assert((fileKeys >> (mine + 1)) != 0)
           fi
        od;
        goto retry
    fi;
#else
    rowGen[k] = mine; everWrapped[k] = everWrapped[k] | (1 << mine);
#endif
    done++
}

proctype Deleter(byte k) {
    byte g, s, covered;
    atomic { !headLocked -> headLocked = true };
    atomic { rowGen[k] = 0; pending[k] = true; headLocked = false };
    rotate();
    done++
}

/* A process opening the store: the repair of a rotation stopped after its commit, then the
 * rotation a deletion left pending. */
proctype Opener() {
    byte g, s, covered;
    atomic { !flocked -> flocked = true };
    fileKeys = fileKeys & ~((1 << gen) - 1);
    flocked = false;
    if
    :: pending[0] || pending[3] -> rotate()
    :: else -> skip
    fi;
    done++
}

/* What must hold in every state: a stored key opens (its generation is in the file), and a key
 * whose deletion's rotation is done opens under nothing left. */
active proctype Invariant() {
end:
    atomic {
        !((rowGen[0] == 0 || (fileKeys & (1 << rowGen[0]))) && (rowGen[1] == 0 || (fileKeys & (1 << rowGen[1]))) &&
          (rowGen[2] == 0 || (fileKeys & (1 << rowGen[2]))) && (rowGen[3] == 0 || (fileKeys & (1 << rowGen[3]))) &&
          (!purged[0] || (fileKeys & everWrapped[0]) == 0) && (!purged[3] || (fileKeys & everWrapped[3]) == 0)) ->
        assert(false)
    }
}

init {
    atomic {
        rowGen[0] = 1; rowGen[3] = 1; everWrapped[0] = 2; everWrapped[3] = 2;
        run Deleter(0); run Deleter(3); run Creator(1); run Creator(2)
    };
    done == 4;
    run Opener();
    done == 5;
    /* Every new key is stored and opens; each deletion is done once no rotation is pending. */
    assert(rowGen[1] != 0 && rowGen[2] != 0 && rowGen[0] == 0 && rowGen[3] == 0);
    assert(pending[0] || (fileKeys & everWrapped[0]) == 0);
    assert(pending[3] || (fileKeys & everWrapped[3]) == 0)
}
