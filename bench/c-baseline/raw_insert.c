/*
 * Plain C programs that issue, with nothing else around them, the SQL a write idiom must issue:
 * the ceiling any engine can reach for that idiom on this machine. The records are loadgen's own
 * (its generator, ported), the layout is the engine's, statements are prepared once and reused.
 * Prints rows per second of the work (open to the last commit), as loadgen times its strategies.
 *
 *   cc -O2 -o raw_insert raw_insert.c -lsqlite3 -lm
 *   ./raw_insert STORE ROWS [DUP_RATE] [SEED] [SHAPE] [ORDER] [BATCH]
 *
 * SHAPE (default plain):
 *   plain    raw-sqlite: one INSERT per row, category set, one transaction.
 *   unique   raw-sqlite-unique: the UNIQUE index on ZEXTERNALID, INSERT OR IGNORE.
 *   context  a context import's saves (context-reset, prefetch), per BATCH rows (default 1000), as
 *            Core Data's save: keys repeated within the batch merged in memory; the key
 *            reservation in its own exclusive transaction; then in another one INSERT per new row
 *            without the constrained ZEXTERNALID, an optimistic-locking UPDATE of Z_OPT per
 *            category the batch related (the to-many side), then UPDATE OR FAIL … SET ZEXTERNALID
 *            per new row. A key already stored fails that UPDATE: ROLLBACK, and the save again in
 *            one exclusive transaction, the conflict fetch (SELECT … WHERE ZEXTERNALID IN, padded
 *            to a power of two) first, then the writes of the rows not stored. Merges into stored
 *            rows cost no SQL, as the engine's merge when the values are equal. After each commit,
 *            the post-save tasks' free-page check on saves 1, 12, 23, …
 *   batch    batch's SQL, per BATCH rows (default 5000): the batch insert asked for object IDs (its
 *            capture table and temporary triggers, keys reserved in blocks of 1024, INSERT OR
 *            IGNORE with ZCATEGORY NULL, the IDs read back, the table and triggers dropped, one
 *            exclusive transaction), the fetch of the inserted rows by Z_PK IN (…), then the
 *            relationship fix-up: one optimistic-locking UPDATE per row and one per category
 *            related, in one exclusive transaction, and the post-save tasks.
 * ORDER: ascending (default) or random keys (loadgen's --key-order).
 * Categories are written first in every shape; the engine's category look-ups are left out, so
 * each ceiling is, if anything, a little high.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t mix(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static uint64_t hash2(uint64_t a, uint64_t b) { return mix(a ^ mix(b + 0x632BE59BD9B4E019ULL)); }
static uint64_t permute48(uint64_t x, uint64_t seed) {
    const uint64_t m = (1ULL << 48) - 1;
    uint64_t v = (x + mix(seed)) & m;
    v = (v * 0x5DEECE66DULL) & m; v ^= v >> 23;
    v = (v * 0xB2F5A8E631F35ULL) & m; v ^= v >> 21;
    v = (v * 0x95B039D173AD5ULL) & m; v ^= v >> 24;
    return v;
}
static const char *categories[50] = {
    "Groceries", "Rent", "Utilities", "Transport", "Fuel", "Dining Out", "Coffee", "Travel",
    "Hotels", "Flights", "Insurance", "Health", "Pharmacy", "Fitness", "Clothing", "Electronics",
    "Books", "Music", "Movies", "Games", "Gifts", "Charity", "Education", "Childcare", "Pets",
    "Home Repair", "Furniture", "Garden", "Phone", "Internet", "Streaming", "Software", "Office Supplies",
    "Business Meals", "Taxes", "Bank Fees", "Parking", "Tolls", "Car Repair", "Haircut", "Cosmetics",
    "Laundry", "Postage", "Subscriptions", "Events", "Sports", "Hobbies", "Alcohol", "Snacks", "Other"};
static const char *adjectives[16] = {"Lunch", "Dinner", "Weekly", "Monthly", "Quick", "Late", "Early", "Team",
    "Family", "Annual", "Airport", "Office", "Client", "Corner", "Online", "Shared"};
static const char *nouns[16] = {"order", "payment", "refill", "ticket", "booking", "purchase", "visit", "renewal",
    "delivery", "repair", "fee", "subscription", "snack", "round", "bill", "trip"};


static sqlite3 *db;

static void check(int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}
static void exec(const char *sql) { check(sqlite3_exec(db, sql, 0, 0, 0), sql); }
static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *s;
    check(sqlite3_prepare_v2(db, sql, -1, &s, 0), sql);
    return s;
}
static void step_reset(sqlite3_stmt *s, const char *what) { check(sqlite3_step(s), what); sqlite3_reset(s); }

/* One generated record, as loadgen's Generator makes it for index i. */
typedef struct { char key[16]; char note[48]; int note_len; int64_t category; double amount, date; } Record;

typedef struct { long rows, dups; uint64_t seed, value_seed; int random_order; } Workload;

static void make_record(const Workload *w, long i, Record *r) {
    unsigned __int128 before = (unsigned __int128)i * w->dups, after = (unsigned __int128)(i + 1) * w->dups;
    long dups_before = (long)(before / w->rows);
    long issued = i - dups_before;
    long k = issued;
    if ((long)(after / w->rows) > dups_before)   /* a repeat: uniform over earlier keys */
        k = (long)(hash2(w->seed ^ 0x5EED0FD0B1E5ULL, (uint64_t)i) % (uint64_t)issued);
    uint64_t h = hash2(w->value_seed, (uint64_t)k);
    uint64_t v = w->random_order ? permute48((uint64_t)k, w->seed) : (mix(w->seed) & 0x7FFF00000000ULL) + (uint64_t)k;
    snprintf(r->key, sizeof r->key, "ex-%012llx", (unsigned long long)v);
    uint64_t hn = hash2(h, 4);
    r->note_len = snprintf(r->note, sizeof r->note, "%s %s #%llu", adjectives[hn & 15], nouns[(hn >> 4) & 15],
                           (unsigned long long)((hn >> 8) % 10000));
    r->category = (int64_t)(hash2(h, 1) % 50) + 1;
    r->amount = (double)(1 + hash2(h, 2) % 99999) / 100;
    r->date = 788918400.0 - (double)(hash2(h, 3) % (365 * 86400ULL));
}

#define EXPENSE_COLUMNS "(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE)"
#define SELECT_EXPENSE "SELECT Z_PK, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE FROM ZEXPENSE WHERE "

static void bind_record(sqlite3_stmt *s, int64_t pk, int64_t category, const Record *r) {
    sqlite3_bind_int64(s, 1, pk);
    if (category) sqlite3_bind_int64(s, 2, category); else sqlite3_bind_null(s, 2);
    sqlite3_bind_double(s, 3, r->amount);
    sqlite3_bind_double(s, 4, r->date);
    sqlite3_bind_text(s, 5, r->key, 15, SQLITE_STATIC);
    sqlite3_bind_text(s, 6, r->note, r->note_len, SQLITE_STATIC);
}

/* The save's INSERT of a constrained entity: no ZEXTERNALID (set by UPDATE OR FAIL afterwards). */
static void bind_record_without_key(sqlite3_stmt *s, int64_t pk, int64_t category, const Record *r) {
    sqlite3_bind_int64(s, 1, pk);
    sqlite3_bind_int64(s, 2, category);
    sqlite3_bind_double(s, 3, r->amount);
    sqlite3_bind_double(s, 4, r->date);
    sqlite3_bind_text(s, 5, r->note, r->note_len, SQLITE_STATIC);
}

static long padded(long n) { long p = 1; while (p < n) p *= 2; return p; }

/* "SELECT … WHERE <column> IN (?,?,…)" with n placeholders. */
static sqlite3_stmt *prepare_in(const char *prefix, const char *column, long n) {
    size_t size = strlen(prefix) + strlen(column) + 16 + 2 * (size_t)n;
    char *sql = malloc(size);
    char *p = sql + sprintf(sql, "%s%s IN (", prefix, column);
    for (long i = 0; i < n; i++) { *p++ = i ? ',' : '?'; if (i) *p++ = '?'; }
    strcpy(p, ")");
    sqlite3_stmt *s = prepare(sql);
    free(sql);
    return s;
}

/* Key reservation as the engine does it: read Z_MAX, compare-and-set it. */
static int64_t reserve(sqlite3_stmt *get, sqlite3_stmt *set, long count) {
    check(sqlite3_step(get), "Z_MAX");
    int64_t max = sqlite3_column_int64(get, 0);
    sqlite3_reset(get);
    sqlite3_bind_int64(set, 1, max + count);
    sqlite3_bind_int64(set, 2, max);
    step_reset(set, "reserve");
    return max + 1;
}

static void run_plain(const Workload *w, int unique) {
    exec("BEGIN");
    sqlite3_stmt *ins = prepare(unique ? "INSERT OR IGNORE INTO ZEXPENSE " EXPENSE_COLUMNS " VALUES (?, 2, 1, ?, ?, ?, ?, ?)"
                                       : "INSERT INTO ZEXPENSE " EXPENSE_COLUMNS " VALUES (?, 2, 1, ?, ?, ?, ?, ?)");
    Record r;
    for (long i = 0; i < w->rows; i++) {
        make_record(w, i, &r);
        bind_record(ins, i + 1, r.category, &r);
        step_reset(ins, "insert");
    }
    exec("COMMIT");
    sqlite3_finalize(ins);
}

/* The keys a batch has met so far (open addressing over the keys' bytes): what the engine's
 * registered objects and stored-row matches tell it, without an object graph. */
typedef struct { const char **slots; long mask; } KeySet;

static void keyset_clear(KeySet *set) { memset(set->slots, 0, sizeof(char *) * (size_t)(set->mask + 1)); }
/* Adds key; returns 1 if it was there already. */
static int keyset_add(KeySet *set, const char *key) {
    uint64_t h = 0;
    memcpy(&h, key + 7, 8);
    for (long i = (long)(mix(h) & (uint64_t)set->mask);; i = (i + 1) & set->mask) {
        if (!set->slots[i]) { set->slots[i] = key; return 0; }
        if (memcmp(set->slots[i], key, 15) == 0) return 1;
    }
}

/* The categories a save related: each is updated once (Z_OPT, under the optimistic lock), as the
 * other side of the changed relationships. Versions are tracked here as the engine's objects do. */
static int64_t category_version[51];
static void bump_categories(sqlite3_stmt *bump, const char *touched) {
    for (int c = 1; c <= 50; c++) {
        if (!touched[c]) continue;
        sqlite3_bind_int64(bump, 1, category_version[c] + 1);
        sqlite3_bind_int64(bump, 2, c);
        sqlite3_bind_int64(bump, 3, category_version[c]);
        step_reset(bump, "category");
        if (sqlite3_changes(db) != 1) { fprintf(stderr, "category: optimistic lock failed\n"); exit(1); }
        category_version[c]++;
    }
}

/* What Core Data runs after each committed save: the free-page check on the connection's first
 * save and then every eleventh (the countdown of _performPostSaveTasks:). No vacuum here: an
 * import frees no pages; and the WAL stays under 8 MiB per save at these batch sizes. */
static int post_save_countdown;
static void post_save(sqlite3_stmt *pages, sqlite3_stmt *free_pages) {
    if (post_save_countdown > 0) { post_save_countdown--; return; }
    post_save_countdown = 10;
    while (sqlite3_step(pages) == SQLITE_ROW) {}
    sqlite3_reset(pages);
    while (sqlite3_step(free_pages) == SQLITE_ROW) {}
    sqlite3_reset(free_pages);
}

/* One write attempt of a context save: INSERTs without the key, the categories' Z_OPT, then the keys.
 * Returns 0 when a key's UPDATE OR FAIL met the UNIQUE index (the caller rolls back). */
static int write_save(sqlite3_stmt *ins, sqlite3_stmt *bump, sqlite3_stmt *key, const Record *chunk, const char *write,
                      long n, int64_t first) {
    char touched[51] = {0};
    int64_t pk = first;
    for (long i = 0; i < n; i++) {
        if (!write[i]) continue;
        bind_record_without_key(ins, pk++, chunk[i].category, &chunk[i]);
        step_reset(ins, "insert");
        touched[chunk[i].category] = 1;
    }
    bump_categories(bump, touched);
    pk = first;
    for (long i = 0; i < n; i++) {
        if (!write[i]) continue;
        sqlite3_bind_text(key, 1, chunk[i].key, 15, SQLITE_STATIC);
        sqlite3_bind_int64(key, 2, pk++);
        int rc = sqlite3_step(key);
        sqlite3_reset(key);
        if (rc == SQLITE_CONSTRAINT) return 0;
        check(rc, "constrained values");
    }
    return 1;
}

static void run_context(const Workload *w, long batch) {
    sqlite3_stmt *check_keys = prepare_in(SELECT_EXPENSE, "ZEXTERNALID", padded(batch));
    sqlite3_stmt *get = prepare("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 2");
    sqlite3_stmt *cas = prepare("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 2 AND Z_MAX = ?");
    sqlite3_stmt *ins = prepare("INSERT INTO ZEXPENSE (Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZNOTE) "
                                "VALUES (?, 2, 1, ?, ?, ?, ?)");
    sqlite3_stmt *key = prepare("UPDATE OR FAIL ZEXPENSE SET ZEXTERNALID = ? WHERE Z_PK = ?");
    sqlite3_stmt *bump = prepare("UPDATE OR FAIL ZCATEGORY SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?");
    sqlite3_stmt *pages = prepare("pragma page_count"), *free_pages = prepare("pragma freelist_count");
    Record *chunk = malloc(sizeof(Record) * (size_t)batch);
    char (*found)[16] = malloc(16 * (size_t)batch);
    char *unique = malloc((size_t)batch), *fresh = malloc((size_t)batch);
    KeySet set = { malloc(sizeof(char *) * 4 * (size_t)padded(batch)), 4 * padded(batch) - 1 };
    for (long start = 0; start < w->rows; start += batch) {
        long n = w->rows - start < batch ? w->rows - start : batch;
        for (long i = 0; i < n; i++) make_record(w, start + i, &chunk[i]);
        /* Repeats within the batch: merged in memory, before anything is written. */
        keyset_clear(&set);
        long inserts = 0;
        for (long i = 0; i < n; i++) inserts += (unique[i] = !keyset_add(&set, chunk[i].key));
        exec("BEGIN EXCLUSIVE");
        int64_t first = reserve(get, cas, inserts);
        exec("COMMIT");
        /* The save's saved-state copy of the state before the save: the categories' versions. */
        int64_t versions[51];
        memcpy(versions, category_version, sizeof versions);
        exec("BEGIN EXCLUSIVE");
        if (write_save(ins, bump, key, chunk, unique, n, first)) {
            exec("COMMIT");
            post_save(pages, free_pages);
            continue;
        }
        exec("ROLLBACK");
        memcpy(category_version, versions, sizeof versions);
        /* The save again: the conflict fetch, then the rows not stored. */
        exec("BEGIN EXCLUSIVE");
        if (n < batch) { sqlite3_finalize(check_keys); check_keys = prepare_in(SELECT_EXPENSE, "ZEXTERNALID", padded(n)); }
        long slots = padded(n), unique_seen = 0, last_unique = 0;
        for (long i = 0; i < n; i++) if (unique[i]) last_unique = i;
        for (long i = 0; i < slots; i++) {
            while (unique_seen < n && !unique[unique_seen]) unique_seen++;
            long at = unique_seen < n ? unique_seen++ : last_unique;
            sqlite3_bind_text(check_keys, (int)i + 1, chunk[at].key, 15, SQLITE_STATIC);
        }
        long nfound = 0;
        while (sqlite3_step(check_keys) == SQLITE_ROW)
            memcpy(found[nfound++], sqlite3_column_text(check_keys, 5), 16);
        sqlite3_reset(check_keys);
        keyset_clear(&set);
        for (long j = 0; j < nfound; j++) keyset_add(&set, found[j]);
        for (long i = 0; i < n; i++) fresh[i] = unique[i] && !keyset_add(&set, chunk[i].key);
        if (!write_save(ins, bump, key, chunk, fresh, n, first)) { fprintf(stderr, "conflict after the fetch\n"); exit(1); }
        exec("COMMIT");
        post_save(pages, free_pages);
    }
    sqlite3_finalize(check_keys); sqlite3_finalize(get); sqlite3_finalize(cas); sqlite3_finalize(ins);
    sqlite3_finalize(key); sqlite3_finalize(bump); sqlite3_finalize(pages); sqlite3_finalize(free_pages);
    free(chunk); free(found); free(unique); free(fresh); free(set.slots);
}

/* A batch insert asked for object IDs: Core Data's capture table and temporary triggers
 * (NSSQLBatchOperationRequestContext createObjectIDCaptureStatementsForDrop:). */
#define CAPTURE_TABLE "TEMP_CDBATCHINSERTOBJECTIDS"
#define CAPTURE_ROW(event, row, type) "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_" event "_" CAPTURE_TABLE "_Expense AFTER " \
    event " ON ZEXPENSE FOR EACH ROW BEGIN INSERT INTO " CAPTURE_TABLE " (ENTITYID, PRIMEKEY, TYPE) SELECT " row ".Z_ENT, " \
    row ".Z_PK, " type "; END;"
#define CAPTURE_ATTRIBUTE(name, column) "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_UPDATE_" CAPTURE_TABLE "_Expense_" name \
    " AFTER UPDATE ON ZEXPENSE FOR EACH ROW WHEN OLD." column " IS NOT NEW." column " BEGIN INSERT INTO " CAPTURE_TABLE \
    " (ENTITYID, PRIMEKEY, TYPE, ATTRIBUTENAME) SELECT OLD.Z_ENT, OLD.Z_PK, 1, '" name "'; END;"
#define CAPTURE_CREATE "CREATE TEMP TABLE IF NOT EXISTS " CAPTURE_TABLE " (ENTITYID INTEGER, PRIMEKEY INTEGER, TYPE INTEGER, " \
    "ATTRIBUTENAME VARCHAR);" CAPTURE_ROW("INSERT", "NEW", "0") CAPTURE_ROW("UPDATE", "OLD", "1") \
    CAPTURE_ATTRIBUTE("amount", "ZAMOUNT") CAPTURE_ATTRIBUTE("date", "ZDATE") CAPTURE_ATTRIBUTE("externalID", "ZEXTERNALID") \
    CAPTURE_ATTRIBUTE("note", "ZNOTE")
#define CAPTURE_DROP "DROP TABLE IF EXISTS " CAPTURE_TABLE "; DROP TRIGGER IF EXISTS ZQ_INSERT_" CAPTURE_TABLE "_Expense;" \
    "DROP TRIGGER IF EXISTS ZQ_UPDATE_" CAPTURE_TABLE "_Expense; DROP TRIGGER IF EXISTS ZQ_UPDATE_" CAPTURE_TABLE "_Expense_amount;" \
    "DROP TRIGGER IF EXISTS ZQ_UPDATE_" CAPTURE_TABLE "_Expense_date; DROP TRIGGER IF EXISTS ZQ_UPDATE_" CAPTURE_TABLE \
    "_Expense_externalID; DROP TRIGGER IF EXISTS ZQ_UPDATE_" CAPTURE_TABLE "_Expense_note;"

static void run_batch(const Workload *w, long batch) {
    sqlite3_stmt *get = prepare("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 2");
    sqlite3_stmt *set = prepare("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 2 AND Z_MAX = ?");
    sqlite3_stmt *ins = prepare("INSERT OR IGNORE INTO ZEXPENSE " EXPENSE_COLUMNS " VALUES (?, 2, 1, ?, ?, ?, ?, ?)");
    sqlite3_stmt *fix = prepare("UPDATE OR FAIL ZEXPENSE SET ZCATEGORY = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?");
    sqlite3_stmt *bump = prepare("UPDATE OR FAIL ZCATEGORY SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?");
    sqlite3_stmt *pages = prepare("pragma page_count"), *free_pages = prepare("pragma freelist_count");
    sqlite3_stmt *gather = 0;
    sqlite3_stmt *fetch = 0;
    long fetch_slots = 0;
    Record *chunk = malloc(sizeof(Record) * (size_t)batch);
    int64_t *pks = malloc(sizeof(int64_t) * (size_t)batch), *cats = malloc(sizeof(int64_t) * (size_t)batch);
    int64_t next = 0, last = -1;
    exec(CAPTURE_CREATE);   /* so that the gather can be prepared once */
    gather = prepare("SELECT DISTINCT ENTITYID, PRIMEKEY FROM " CAPTURE_TABLE);
    exec(CAPTURE_DROP);
    for (long start = 0; start < w->rows; start += batch) {
        long n = w->rows - start < batch ? w->rows - start : batch, inserted = 0;
        exec("BEGIN EXCLUSIVE");
        exec(CAPTURE_CREATE);
        for (long i = 0; i < n; i++) {
            make_record(w, start + i, &chunk[i]);
            if (next > last) { next = reserve(get, set, 1024); last = next + 1023; }
            bind_record(ins, next, 0, &chunk[i]);
            step_reset(ins, "insert");
            if (sqlite3_changes(db) == 1) { pks[inserted] = next; cats[inserted] = chunk[i].category; inserted++; }
            next++;
        }
        long captured = 0;
        while (sqlite3_step(gather) == SQLITE_ROW) captured += sqlite3_column_int64(gather, 1) > 0;
        sqlite3_reset(gather);
        if (captured != inserted) { fprintf(stderr, "capture: %ld rows, %ld inserted\n", captured, inserted); exit(1); }
        exec(CAPTURE_DROP);
        exec("COMMIT");
        if (inserted == 0) continue;
        if (padded(inserted) != fetch_slots) {
            if (fetch) sqlite3_finalize(fetch);
            fetch_slots = padded(inserted);
            fetch = prepare_in(SELECT_EXPENSE, "Z_PK", fetch_slots);
        }
        for (long i = 0; i < fetch_slots; i++) sqlite3_bind_int64(fetch, (int)i + 1, pks[i < inserted ? i : inserted - 1]);
        int64_t opt_sum = 0;   /* read what a fetch materialises, so the compiler keeps the reads */
        while (sqlite3_step(fetch) == SQLITE_ROW) {
            opt_sum += sqlite3_column_int64(fetch, 1) + (int64_t)sqlite3_column_double(fetch, 3);
            opt_sum += sqlite3_column_bytes(fetch, 5) + sqlite3_column_bytes(fetch, 6);
            (void)sqlite3_column_text(fetch, 5); (void)sqlite3_column_text(fetch, 6);
        }
        sqlite3_reset(fetch);
        if (opt_sum < 0) fprintf(stderr, "%lld\n", (long long)opt_sum);
        exec("BEGIN EXCLUSIVE");
        char touched[51] = {0};
        for (long i = 0; i < inserted; i++) {
            sqlite3_bind_int64(fix, 1, cats[i]);
            sqlite3_bind_int64(fix, 2, 2);
            sqlite3_bind_int64(fix, 3, pks[i]);
            sqlite3_bind_int64(fix, 4, 1);
            step_reset(fix, "fix-up");
            if (sqlite3_changes(db) != 1) { fprintf(stderr, "fix-up: optimistic lock failed\n"); exit(1); }
            touched[cats[i]] = 1;
        }
        bump_categories(bump, touched);
        exec("COMMIT");
        post_save(pages, free_pages);
    }
    if (fetch) sqlite3_finalize(fetch);
    sqlite3_finalize(gather);
    sqlite3_finalize(get); sqlite3_finalize(set); sqlite3_finalize(ins); sqlite3_finalize(fix);
    sqlite3_finalize(bump); sqlite3_finalize(pages); sqlite3_finalize(free_pages);
    free(chunk); free(pks); free(cats);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s STORE ROWS [DUP_RATE] [SEED] [plain|unique|context|batch] [ascending|random] [BATCH]\n", argv[0]);
        return 64;
    }
    Workload w = {0};
    w.rows = atol(argv[2]);
    double dup_rate = argc > 3 ? atof(argv[3]) : 0;
    w.seed = argc > 4 ? strtoull(argv[4], 0, 10) : 1;
    const char *shape = argc > 5 ? argv[5] : "plain";
    w.random_order = argc > 6 && strcmp(argv[6], "random") == 0;
    int is_batch = strcmp(shape, "batch") == 0, is_context = strcmp(shape, "context") == 0;
    int is_unique = strcmp(shape, "unique") == 0;
    if (!is_batch && !is_context && !is_unique && strcmp(shape, "plain") != 0) {
        fprintf(stderr, "unknown shape '%s': use plain, unique, context or batch\n", shape);
        return 64;
    }
    long batch = argc > 7 ? atol(argv[7]) : (is_batch ? 5000 : 1000);
    w.dups = (long)llround(w.rows * dup_rate);
    if (w.dups > w.rows - 1) w.dups = w.rows - 1;
    w.value_seed = mix(w.seed ^ 0x00DA7A5EED00ULL);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    check(sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, 0), "open");
    exec("PRAGMA page_size=4096; PRAGMA auto_vacuum=2; PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA recursive_triggers=1;"
         "CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );"
         "CREATE TABLE ZEXPENSE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER,"
         " ZAMOUNT FLOAT, ZDATE TIMESTAMP, ZEXTERNALID VARCHAR, ZNOTE VARCHAR );"
         "CREATE INDEX ZEXPENSE_ZCATEGORY_INDEX ON ZEXPENSE (ZCATEGORY);"
         "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);"
         "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);"
         "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 0, 50), (2, 'Expense', 0, 0);");
    if (strcmp(shape, "plain") != 0)
        exec("CREATE UNIQUE INDEX Z_Expense_UNIQUE_externalID ON ZEXPENSE (ZEXTERNALID)");
    exec("BEGIN");
    sqlite3_stmt *cat = prepare("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)");
    for (int i = 0; i < 50; i++) {
        sqlite3_bind_int64(cat, 1, i + 1);
        sqlite3_bind_text(cat, 2, categories[i], -1, SQLITE_STATIC);
        step_reset(cat, "category");
    }
    sqlite3_finalize(cat);
    exec("COMMIT");
    for (int c = 1; c <= 50; c++) category_version[c] = 1;
    if (is_batch) run_batch(&w, batch);
    else if (is_context) run_context(&w, batch);
    else run_plain(&w, is_unique);
    sqlite3_close(db);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.1f\n", w.rows / s);
    return 0;
}
