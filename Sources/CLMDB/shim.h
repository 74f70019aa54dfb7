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

/* ---- Damage guard (see Sources/LMDB/DamageGuard.swift) ----------------------------------------
 * LMDB reacts to a damaged data file in two ways Reel cannot catch as errors: an assertion
 * (mdb_assert_fail prints and calls abort()) and a fault (SIGBUS reading a page past the end of a
 * file cut short, SIGSEGV following a garbage page number, or a NULL pointer LMDB follows from a
 * garbage node flag). Each open environment registers its map here with a line to print; the
 * assertion callback and the SIGSEGV/SIGBUS handler print that line and _exit. A fault in LMDB's
 * own code outside every map prints a line naming every open data file. Any other fault is a bug:
 * the previous action is restored and the signal delivered to it. The handler only reads this table (atomically) and calls write,
 * sigaction, raise and _exit, all async-signal-safe. Only the LMDB module may call these: each
 * Swift module that calls a static inline function gets its own copy of the table.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <ucontext.h>

#define REEL_GUARD_SLOTS 64
#define REEL_GUARD_TEXT 1024

struct reel_guard_slot {
    MDB_env *env;                      /* owner; NULL when free */
    uintptr_t start, end;              /* the map; start 0 while it is being changed */
    int status;                        /* exit status */
    size_t fault_length, head_length, tail_length;
    char fault[REEL_GUARD_TEXT];       /* the whole line for a fault, newline included */
    char head[REEL_GUARD_TEXT];        /* an assertion's line: head, LMDB's text, tail */
    char tail[REEL_GUARD_TEXT];
};

struct reel_guard_state {
    struct reel_guard_slot slots[REEL_GUARD_SLOTS];
    struct sigaction previous_segv, previous_bus;
    int installed;
    /* liblmdb's code: a fault there (a NULL cursor LMDB follows from a garbage node flag, say)
       is LMDB meeting damage in some file, even when the address is in no map. */
    uintptr_t code_start, code_end;
    /* The line for such a fault (naming every open data file), double-buffered: the handler
       reads the one `general_index` names while the other is rewritten. */
    char general[2][REEL_GUARD_TEXT];
    size_t general_length[2];
    int general_index;
    int general_status;
};

/* A function's static, not a file-scope one: Swift's importer emits the functions a module calls
   (and their statics) but no file-scope variable of a header. */
static inline struct reel_guard_state *reel_guard(void) {
    static struct reel_guard_state state;
    return &state;
}

static inline void reel_guard_write(const char *text, size_t length) {
    while (length > 0) {
        ssize_t n = write(2, text, length);
        if (n <= 0) return;
        text += n;
        length -= (size_t)n;
    }
}

/* Two threads may fault on the same broken page at once (the verifier's lanes): the first one
   prints its line and exits; any other waits for that exit instead of printing a second line. */
static inline void reel_guard_claim(void) {
    static int claimed;
    if (__atomic_exchange_n(&claimed, 1, __ATOMIC_ACQ_REL) != 0) {
        for (;;) pause();
    }
}

/* How far past its map a read can run: LMDB hands out values of up to 4 GiB in place, so a
   garbage size overruns the map's end. */
#define REEL_GUARD_OVERRUN ((uintptr_t)1 << 32)

/* The environment this thread is in a transaction of (NULL: none): a fault while it walks its
   pages is that file's, whichever map the garbage it followed points into. A static thread-local
   of the executable, so the handler reads it without allocating. */
static inline MDB_env **reel_guard_current(void) {
    static __thread MDB_env *current;
    return &current;
}

/* Marks this thread as in a transaction of `env`; answers what was marked before. */
static inline MDB_env *reel_guard_enter(MDB_env *env) {
    MDB_env *previous = *reel_guard_current();
    *reel_guard_current() = env;
    return previous;
}

static inline void reel_guard_leave(MDB_env *previous) { *reel_guard_current() = previous; }

static inline void reel_guard_fault(int sig, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = (uintptr_t)((ucontext_t *)context)->uc_mcontext.gregs[16]; /* REG_RIP */
#elif defined(__aarch64__)
    pc = (uintptr_t)((ucontext_t *)context)->uc_mcontext.pc;
#endif
    /* In a transaction of one environment: a fault in a map's window or in LMDB's code is that
       environment's file (a garbage page number from one file can point into another's map). */
    MDB_env *current = *reel_guard_current();
    if (current != NULL) {
        int inside = pc != 0 && pc >= reel_guard()->code_start && pc < reel_guard()->code_end;
        for (int i = 0; i < REEL_GUARD_SLOTS && !inside; i++) {
            struct reel_guard_slot *slot = &reel_guard()->slots[i];
            uintptr_t start = __atomic_load_n(&slot->start, __ATOMIC_ACQUIRE);
            uintptr_t end = __atomic_load_n(&slot->end, __ATOMIC_ACQUIRE);
            if (start != 0 && address >= start && address < end + REEL_GUARD_OVERRUN) inside = 1;
        }
        for (int i = 0; i < REEL_GUARD_SLOTS && inside; i++) {
            struct reel_guard_slot *slot = &reel_guard()->slots[i];
            if (__atomic_load_n(&slot->env, __ATOMIC_ACQUIRE) != current) continue;
            reel_guard_claim();
            reel_guard_write(slot->fault, slot->fault_length);
            _exit(slot->status);
        }
    }
    for (int i = 0; i < REEL_GUARD_SLOTS; i++) {
        struct reel_guard_slot *slot = &reel_guard()->slots[i];
        uintptr_t start = __atomic_load_n(&slot->start, __ATOMIC_ACQUIRE);
        if (start == 0) continue;
        uintptr_t end = __atomic_load_n(&slot->end, __ATOMIC_ACQUIRE);
        if (address >= start && address < end + REEL_GUARD_OVERRUN) {
            reel_guard_claim();
            reel_guard_write(slot->fault, slot->fault_length);
            _exit(slot->status);
        }
    }
    struct reel_guard_state *state = reel_guard();
    if (pc != 0 && pc >= state->code_start && pc < state->code_end) {
        reel_guard_claim();
        int which = __atomic_load_n(&state->general_index, __ATOMIC_ACQUIRE);
        reel_guard_write(state->general[which], state->general_length[which]);
        _exit(state->general_status);
    }
    sigaction(sig, sig == SIGBUS ? &reel_guard()->previous_bus : &reel_guard()->previous_segv, NULL);
    /* A fault re-runs its instruction on return, now under the restored action; a signal sent
       by a process must be sent again. */
    if (info->si_code <= 0) raise(sig);
}

static inline void reel_guard_assert(MDB_env *env, const char *text) {
    for (int i = 0; i < REEL_GUARD_SLOTS; i++) {
        struct reel_guard_slot *slot = &reel_guard()->slots[i];
        if (__atomic_load_n(&slot->env, __ATOMIC_ACQUIRE) != env) continue;
        reel_guard_claim();
        reel_guard_write(slot->head, slot->head_length);
        reel_guard_write(text, strlen(text));
        reel_guard_write(slot->tail, slot->tail_length);
        _exit(slot->status);
    }
    /* Not registered: LMDB prints the assertion and aborts, as without a callback. */
}

/// The executable mapping holding `address` (liblmdb's code), from /proc/self/maps.
static inline int reel_guard_locate_code(uintptr_t address, uintptr_t *start, uintptr_t *end) {
    FILE *maps = fopen("/proc/self/maps", "re");
    if (maps == NULL) return -1;
    char line[4096];
    int found = -1;
    while (found != 0 && fgets(line, sizeof(line), maps) != NULL) {
        unsigned long low, high;
        char mode[8];
        if (sscanf(line, "%lx-%lx %7s", &low, &high, mode) == 3 && mode[2] == 'x' && address >= low && address < high) {
            *start = (uintptr_t)low;
            *end = (uintptr_t)high;
            found = 0;
        }
        while (strchr(line, '\n') == NULL && fgets(line, sizeof(line), maps) != NULL) {}
    }
    fclose(maps);
    return found;
}

/// Installs the SIGSEGV and SIGBUS handler once. Returns 0, or -1 with errno.
static inline int reel_guard_install(void) {
    if (reel_guard()->installed) return 0;
    /* Where liblmdb's code is: the executable mapping holding mdb_cursor_get. */
    struct reel_guard_state *state = reel_guard();
    if (reel_guard_locate_code((uintptr_t)&mdb_cursor_get, &state->code_start, &state->code_end) != 0) {
        state->code_start = state->code_end = 0;
    }
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = reel_guard_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSEGV, &action, &reel_guard()->previous_segv) != 0) return -1;
    if (sigaction(SIGBUS, &action, &reel_guard()->previous_bus) != 0) return -1;
    reel_guard()->installed = 1;
    return 0;
}

static inline size_t reel_guard_copy(char *to, const char *from) {
    size_t length = strlen(from);
    if (length >= REEL_GUARD_TEXT) length = REEL_GUARD_TEXT - 1;
    memcpy(to, from, length);
    to[length] = 0;
    return length;
}

/// Where the environment's data file is mapped: LMDB does not say (mdb_env_info's me_mapaddr is
/// the fixed address of MDB_FIXEDMAP, else NULL), so the mapping of the file's device and inode
/// at offset 0 is looked up in /proc/self/maps. Returns 0, or -1 when it is not found.
static inline int reel_guard_locate(MDB_env *env, uintptr_t *start) {
    int fd;
    struct stat file;
    if (mdb_env_get_fd(env, &fd) != 0 || fstat(fd, &file) != 0) return -1;
    FILE *maps = fopen("/proc/self/maps", "re");
    if (maps == NULL) return -1;
    char line[4096];
    int found = -1;
    while (found != 0 && fgets(line, sizeof(line), maps) != NULL) {
        unsigned long low, high, offset, inode;
        unsigned int major_number, minor_number;
        char mode[8];
        if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &low, &high, mode, &offset, &major_number, &minor_number, &inode) != 7) continue;
        if (offset == 0 && inode == (unsigned long)file.st_ino && makedev(major_number, minor_number) == file.st_dev) {
            *start = (uintptr_t)low;
            found = 0;
        }
        /* A line longer than the buffer: skip its rest. */
        while (strchr(line, '\n') == NULL && fgets(line, sizeof(line), maps) != NULL) {}
    }
    fclose(maps);
    return found;
}

/// Reads the environment's map address and size again (after it was opened or resized).
static inline void reel_guard_refresh(int index) {
    if (index < 0 || index >= REEL_GUARD_SLOTS) return;
    struct reel_guard_slot *slot = &reel_guard()->slots[index];
    MDB_envinfo info;
    uintptr_t start;
    __atomic_store_n(&slot->start, 0, __ATOMIC_RELEASE);
    if (slot->env == NULL || mdb_env_info(slot->env, &info) != 0 || reel_guard_locate(slot->env, &start) != 0) return;
    __atomic_store_n(&slot->end, start + info.me_mapsize, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->start, start, __ATOMIC_RELEASE);
}

/// Sets the lines a slot prints (its map unguarded meanwhile).
static inline void reel_guard_describe(int index, const char *fault, const char *head, const char *tail, int status) {
    if (index < 0 || index >= REEL_GUARD_SLOTS) return;
    struct reel_guard_slot *slot = &reel_guard()->slots[index];
    __atomic_store_n(&slot->start, 0, __ATOMIC_RELEASE);
    slot->fault_length = reel_guard_copy(slot->fault, fault);
    slot->head_length = reel_guard_copy(slot->head, head);
    slot->tail_length = reel_guard_copy(slot->tail, tail);
    slot->status = status;
    reel_guard_refresh(index);
}

/// Registers an open environment; returns its slot, or -1 when all are taken (it is then not
/// guarded). The caller serialises register, describe, refresh and unregister.
static inline int reel_guard_register(MDB_env *env, const char *fault, const char *head, const char *tail, int status) {
    if (reel_guard_install() != 0) return -1;
    for (int i = 0; i < REEL_GUARD_SLOTS; i++) {
        struct reel_guard_slot *slot = &reel_guard()->slots[i];
        if (slot->env != NULL) continue;
        __atomic_store_n(&slot->env, env, __ATOMIC_RELEASE);
        reel_guard_describe(i, fault, head, tail, status);
        mdb_env_set_assert(env, reel_guard_assert);
        return i;
    }
    return -1;
}

/// Sets the line for a fault in LMDB's code outside every map (see `code_start`).
static inline void reel_guard_describe_general(const char *text, int status) {
    struct reel_guard_state *state = reel_guard();
    int next = 1 - __atomic_load_n(&state->general_index, __ATOMIC_ACQUIRE);
    state->general_length[next] = reel_guard_copy(state->general[next], text);
    state->general_status = status;
    __atomic_store_n(&state->general_index, next, __ATOMIC_RELEASE);
}

/// Forgets a slot (before its environment is closed).
static inline void reel_guard_unregister(int index) {
    if (index < 0 || index >= REEL_GUARD_SLOTS) return;
    struct reel_guard_slot *slot = &reel_guard()->slots[index];
    __atomic_store_n(&slot->start, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->env, NULL, __ATOMIC_RELEASE);
}

#endif
