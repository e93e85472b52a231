/*
 * The plain C program raw-sqlite is held against: the same records (the same generator,
 * ported), the same layout, one prepared INSERT reused for every row, one transaction.
 * Prints rows per second of the insert work (open to commit), as loadgen times its strategies.
 *
 *   cc -O2 -o raw_insert raw_insert.c -lsqlite3
 *   ./raw_insert STORE ROWS [DUP_RATE] [SEED] [unique] [random]
 *
 * With "unique", the layout gets the UNIQUE index on ZEXTERNALID that constrained strategies
 * write into (and repeated keys are skipped with INSERT OR IGNORE): what the key's index
 * costs, apart from any engine. With "random", keys come in random order (loadgen's
 * --key-order random) instead of ascending.
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

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s STORE ROWS [DUP_RATE] [SEED]\n", argv[0]); return 64; }
    const char *path = argv[1];
    long rows = atol(argv[2]);
    double dup_rate = argc > 3 ? atof(argv[3]) : 0;
    uint64_t seed = argc > 4 ? strtoull(argv[4], 0, 10) : 1;
    int unique = argc > 5 && strcmp(argv[5], "unique") == 0;
    int random_order = argc > 6 && strcmp(argv[6], "random") == 0;
    long dups = (long)llround(rows * dup_rate);
    if (dups > rows - 1) dups = rows - 1;
    uint64_t value_seed = mix(seed ^ 0x00DA7A5EED00ULL);
    const double date_base = 788918400.0;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sqlite3 *db;
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, 0), db, "open");
    check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA recursive_triggers=1;"
        "CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );"
        "CREATE TABLE ZEXPENSE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER,"
        " ZAMOUNT FLOAT, ZDATE TIMESTAMP, ZEXTERNALID VARCHAR, ZNOTE VARCHAR );"
        "CREATE INDEX ZEXPENSE_ZCATEGORY_INDEX ON ZEXPENSE (ZCATEGORY);"
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);"
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);", 0, 0, 0), db, "ddl");
    if (unique) check(sqlite3_exec(db, "CREATE UNIQUE INDEX ZEXPENSE_UNIQUE_ZEXTERNALID ON ZEXPENSE (ZEXTERNALID)",
                                   0, 0, 0), db, "unique");
    check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
    sqlite3_stmt *cat, *ins;
    check(sqlite3_prepare_v2(db, "INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)", -1, &cat, 0), db, "prepare");
    for (int i = 0; i < 50; i++) {
        sqlite3_bind_int64(cat, 1, i + 1);
        sqlite3_bind_text(cat, 2, categories[i], -1, SQLITE_STATIC);
        check(sqlite3_step(cat), db, "category"); sqlite3_reset(cat);
    }
    check(sqlite3_prepare_v2(db, unique ? "INSERT OR IGNORE INTO ZEXPENSE (Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE,"
                                 " ZEXTERNALID, ZNOTE) VALUES (?, 2, 1, ?, ?, ?, ?, ?)" : "INSERT INTO ZEXPENSE (Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE)"
                                 " VALUES (?, 2, 1, ?, ?, ?, ?, ?)", -1, &ins, 0), db, "prepare");
    char key[32], note[64];
    for (long i = 0; i < rows; i++) {
        unsigned __int128 before = (unsigned __int128)i * dups, after = (unsigned __int128)(i + 1) * dups;
        long dups_before = (long)(before / rows);
        long issued = i - dups_before;
        long k = issued;
        if ((long)(after / rows) > dups_before)   /* a repeat: uniform over earlier keys */
            k = (long)(hash2(seed ^ 0x5EED0FD0B1E5ULL, (uint64_t)i) % (uint64_t)issued);
        uint64_t h = hash2(value_seed, (uint64_t)k);
        uint64_t v = random_order ? permute48((uint64_t)k, seed) : (mix(seed) & 0x7FFF00000000ULL) + (uint64_t)k;
        snprintf(key, sizeof key, "ex-%012llx", (unsigned long long)v);
        uint64_t hn = hash2(h, 4);
        int n = snprintf(note, sizeof note, "%s %s #%llu", adjectives[hn & 15], nouns[(hn >> 4) & 15],
                         (unsigned long long)((hn >> 8) % 10000));
        sqlite3_bind_int64(ins, 1, i + 1);
        sqlite3_bind_int64(ins, 2, (sqlite3_int64)(hash2(h, 1) % 50) + 1);
        sqlite3_bind_double(ins, 3, (double)(1 + hash2(h, 2) % 99999) / 100);
        sqlite3_bind_double(ins, 4, date_base - (double)(hash2(h, 3) % (365 * 86400ULL)));
        sqlite3_bind_text(ins, 5, key, 15, SQLITE_STATIC);
        sqlite3_bind_text(ins, 6, note, n, SQLITE_STATIC);
        check(sqlite3_step(ins), db, "insert"); sqlite3_reset(ins);
    }
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    sqlite3_finalize(cat); sqlite3_finalize(ins);
    sqlite3_close(db);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.1f\n", rows / s);
    return 0;
}
