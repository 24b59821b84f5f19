#include <sqlite3.h>

/// `sqlite3_config` is variadic, which Swift cannot call: one fixed-argument wrapper per option used.
/// Turns off SQLite's memory statistics, which take a global mutex on every allocation. Must run
/// before the library is initialised (the first connection opens it); returns SQLITE_MISUSE after.
static inline int rhizome_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
