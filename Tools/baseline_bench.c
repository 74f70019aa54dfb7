/*
 * baseline_bench.c: the baseline the Swift event log is compared against. Plain, best-practice use
 * of LMDB and SQLite from C, durable commits in both (no NOSYNC, synchronous=FULL).
 *
 * Build: cc -O2 -o baseline_bench Tools/baseline_bench.c -llmdb -lsqlite3 -lpthread
 *
 * Usage:
 *   baseline_bench lmdb-batch   DIR N BATCH VALUE_SIZE
 *   baseline_bench sqlite-batch DIR N BATCH VALUE_SIZE
 *   baseline_bench lmdb-single  DIR N VALUE_SIZE
 *   baseline_bench sqlite-single DIR N VALUE_SIZE
 *
 * DIR must not exist; it is created. Keys are positions 1..N (LMDB: u64 big-endian with
 * MDB_APPEND; SQLite: INTEGER PRIMARY KEY). Values are VALUE_SIZE pseudo-random bytes, generated
 * per event inside the timed loop by a cheap xorshift generator (the same cost for both systems).
 * Batch modes commit every BATCH events and time the whole loop; single modes commit every event
 * and also time each commit (begin to durable commit). Prints one JSON line on stdout; on error,
 * one line on stderr and exit status 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <lmdb.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void die(const char *fmt, ...) {
    va_list ap;
    fputs("baseline_bench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static void check_mdb(int rc, const char *what) {
    if (rc != MDB_SUCCESS) die("%s: %s", what, mdb_strerror(rc));
}

static void check_sqlite(sqlite3 *db, int rc, int want, const char *what) {
    if (rc != want) die("%s: %s", what, sqlite3_errmsg(db));
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static void fill_random(unsigned char *buf, size_t size) {
    for (size_t i = 0; i < size; i += 8) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        size_t n = size - i < 8 ? size - i : 8;
        memcpy(buf + i, &rng_state, n);
    }
}

static void put_be64(unsigned char out[8], uint64_t v) {
    for (int i = 7; i >= 0; i--, v >>= 8) out[i] = (unsigned char)(v & 0xff);
}

static uint64_t parse_count(const char *text, const char *name) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v == 0 || text[0] == '-')
        die("%s must be a positive integer, got '%s'", name, text);
    return (uint64_t)v;
}

static void make_dir(const char *dir) {
    if (mkdir(dir, 0755) != 0) die("cannot create %s: %s", dir, strerror(errno));
}

/* ---- per-commit latency statistics ---- */

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted values. */
static double percentile(const double *sorted, uint64_t n, double p) {
    uint64_t rank = (uint64_t)(p * (double)n + 0.999999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return sorted[rank - 1];
}

static void report(const char *system, const char *mode, uint64_t n, uint64_t batch, uint64_t value_size,
                   double seconds, double *latencies) {
    printf("{\"system\":\"%s\",\"mode\":\"%s\",\"events\":%llu,\"batch\":%llu,\"valueSize\":%llu,"
           "\"seconds\":%.6f,\"eventsPerSecond\":%.1f",
           system, mode, (unsigned long long)n, (unsigned long long)batch, (unsigned long long)value_size,
           seconds, (double)n / seconds);
    if (latencies) {
        double sum = 0;
        for (uint64_t i = 0; i < n; i++) sum += latencies[i];
        qsort(latencies, n, sizeof *latencies, compare_double);
        printf(",\"p50Micros\":%.1f,\"p99Micros\":%.1f,\"meanMicros\":%.1f",
               percentile(latencies, n, 0.50) * 1e6, percentile(latencies, n, 0.99) * 1e6, sum / (double)n * 1e6);
    }
    printf("}\n");
}

/* ---- LMDB ---- */

/* Events per write transaction = batch; latencies (one per transaction) is filled when non-NULL. */
static double run_lmdb(const char *dir, uint64_t n, uint64_t batch, uint64_t value_size, double *latencies) {
    /* Map size fixed up front: at least 4 GiB, more if the data needs it (overflow pages included). */
    uint64_t per_event = value_size + 64;
    if (value_size > 1024) per_event = (value_size + 16 + 4095) / 4096 * 4096 + 64;
    uint64_t map_size = n * per_event * 2 + (64ull << 20);
    if (map_size < (4ull << 30)) map_size = 4ull << 30;

    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    check_mdb(mdb_env_create(&env), "mdb_env_create");
    check_mdb(mdb_env_set_mapsize(env, (size_t)map_size), "mdb_env_set_mapsize");
    check_mdb(mdb_env_set_maxdbs(env, 4), "mdb_env_set_maxdbs");
    check_mdb(mdb_env_open(env, dir, MDB_NOTLS, 0644), "mdb_env_open");
    check_mdb(mdb_txn_begin(env, NULL, 0, &txn), "mdb_txn_begin");
    check_mdb(mdb_dbi_open(txn, "events", MDB_CREATE, &dbi), "mdb_dbi_open");
    check_mdb(mdb_txn_commit(txn), "mdb_txn_commit");

    unsigned char key_bytes[8];
    unsigned char *value = malloc(value_size);
    if (!value) die("out of memory");
    MDB_val key = {sizeof key_bytes, key_bytes}, data;

    double start = now_seconds();
    for (uint64_t pos = 1, tx = 0; pos <= n; tx++) {
        double t0 = latencies ? now_seconds() : 0;
        check_mdb(mdb_txn_begin(env, NULL, 0, &txn), "mdb_txn_begin");
        for (uint64_t i = 0; i < batch && pos <= n; i++, pos++) {
            put_be64(key_bytes, pos);
            fill_random(value, value_size);
            data.mv_size = value_size;
            data.mv_data = value;
            check_mdb(mdb_put(txn, dbi, &key, &data, MDB_APPEND), "mdb_put");
        }
        check_mdb(mdb_txn_commit(txn), "mdb_txn_commit");
        if (latencies) latencies[tx] = now_seconds() - t0;
    }
    double seconds = now_seconds() - start;

    free(value);
    mdb_env_close(env);
    return seconds;
}

/* ---- SQLite ---- */

static double run_sqlite(const char *dir, uint64_t n, uint64_t batch, uint64_t value_size, double *latencies) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/bench.sqlite", dir) >= (int)sizeof path) die("path too long");

    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) die("sqlite3_open %s: %s", path, sqlite3_errmsg(db));
    sqlite3_stmt *mode;
    check_sqlite(db, sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &mode, NULL), SQLITE_OK, "journal_mode");
    check_sqlite(db, sqlite3_step(mode), SQLITE_ROW, "journal_mode");
    if (strcmp((const char *)sqlite3_column_text(mode, 0), "wal") != 0) die("journal_mode is not WAL");
    sqlite3_finalize(mode);
    check_sqlite(db, sqlite3_exec(db, "PRAGMA synchronous=FULL;"
                                      "CREATE TABLE events(position INTEGER PRIMARY KEY, data BLOB NOT NULL);",
                                  NULL, NULL, NULL), SQLITE_OK, "setup");

    sqlite3_stmt *begin, *commit, *insert;
    check_sqlite(db, sqlite3_prepare_v2(db, "BEGIN", -1, &begin, NULL), SQLITE_OK, "prepare BEGIN");
    check_sqlite(db, sqlite3_prepare_v2(db, "COMMIT", -1, &commit, NULL), SQLITE_OK, "prepare COMMIT");
    check_sqlite(db, sqlite3_prepare_v2(db, "INSERT INTO events(position, data) VALUES(?1, ?2)", -1, &insert, NULL),
                 SQLITE_OK, "prepare INSERT");

    unsigned char *value = malloc(value_size);
    if (!value) die("out of memory");

    double start = now_seconds();
    for (uint64_t pos = 1, tx = 0; pos <= n; tx++) {
        double t0 = latencies ? now_seconds() : 0;
        check_sqlite(db, sqlite3_step(begin), SQLITE_DONE, "BEGIN");
        sqlite3_reset(begin);
        for (uint64_t i = 0; i < batch && pos <= n; i++, pos++) {
            fill_random(value, value_size);
            sqlite3_bind_int64(insert, 1, (sqlite3_int64)pos);
            sqlite3_bind_blob(insert, 2, value, (int)value_size, SQLITE_STATIC);
            check_sqlite(db, sqlite3_step(insert), SQLITE_DONE, "INSERT");
            sqlite3_reset(insert);
        }
        check_sqlite(db, sqlite3_step(commit), SQLITE_DONE, "COMMIT");
        sqlite3_reset(commit);
        if (latencies) latencies[tx] = now_seconds() - t0;
    }
    double seconds = now_seconds() - start;

    free(value);
    sqlite3_finalize(begin);
    sqlite3_finalize(commit);
    sqlite3_finalize(insert);
    if (sqlite3_close(db) != SQLITE_OK) die("sqlite3_close: %s", sqlite3_errmsg(db));
    return seconds;
}

int main(int argc, char **argv) {
    const char *usage = "usage: baseline_bench lmdb-batch|sqlite-batch DIR N BATCH VALUE_SIZE"
                        " | lmdb-single|sqlite-single DIR N VALUE_SIZE";
    if (argc < 2) die("%s", usage);
    const char *mode = argv[1];
    int lmdb = strncmp(mode, "lmdb-", 5) == 0, sqlite = strncmp(mode, "sqlite-", 7) == 0;
    const char *kind = lmdb ? mode + 5 : sqlite ? mode + 7 : "";
    int batch_mode = strcmp(kind, "batch") == 0, single_mode = strcmp(kind, "single") == 0;
    if (!(batch_mode || single_mode) || argc != (batch_mode ? 6 : 5)) die("%s", usage);

    const char *dir = argv[2];
    uint64_t n = parse_count(argv[3], "N");
    uint64_t batch = batch_mode ? parse_count(argv[4], "BATCH") : 1;
    uint64_t value_size = parse_count(argv[batch_mode ? 5 : 4], "VALUE_SIZE");
    if (value_size > (1u << 30)) die("VALUE_SIZE too large");

    double *latencies = NULL;
    if (single_mode && !(latencies = malloc(n * sizeof *latencies))) die("out of memory");

    make_dir(dir);
    double seconds = lmdb ? run_lmdb(dir, n, batch, value_size, latencies)
                          : run_sqlite(dir, n, batch, value_size, latencies);
    report(lmdb ? "lmdb" : "sqlite", kind, n, batch, value_size, seconds, latencies);
    free(latencies);
    return 0;
}
