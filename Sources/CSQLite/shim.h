#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros casting integers to function pointers,
// which Swift cannot import; these give Swift the same destructor values.
static inline sqlite3_destructor_type loadgen_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type loadgen_sqlite_static(void) { return SQLITE_STATIC; }

// Empty text: a zero-length buffer may have no address, and sqlite3_bind_text binds NULL for a
// null pointer; this binds '' from a literal that lives as long as the program.
static inline int loadgen_bind_empty_text(sqlite3_stmt *statement, int index) {
    return sqlite3_bind_text(statement, index, "", 0, SQLITE_STATIC);
}
