#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros casting integers to function pointers,
// which Swift cannot import; these give Swift the same destructor values.
static inline sqlite3_destructor_type loadgen_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type loadgen_sqlite_static(void) { return SQLITE_STATIC; }
