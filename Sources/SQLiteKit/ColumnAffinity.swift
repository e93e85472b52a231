/// The affinity SQLite gives a column from its declared type (section 3.1 of "Datatypes In
/// SQLite"): it decides how values convert on the way in and which indexes a comparison may use.
package enum ColumnAffinity: String, Sendable {
    case integer = "INTEGER", text = "TEXT", blob = "BLOB", real = "REAL", numeric = "NUMERIC"

    /// SQLite's five rules, in its order: `INT` first (`POINT` is an integer), then `CHAR`, `CLOB`
    /// or `TEXT`, then `BLOB` or no type, then `REAL`, `FLOA` or `DOUB`, else numeric.
    package init(declaredType: String?) {
        let type = (declaredType ?? "").uppercased()
        if type.contains("INT") {
            self = .integer
        } else if ["CHAR", "CLOB", "TEXT"].contains(where: type.contains) {
            self = .text
        } else if type.isEmpty || type.contains("BLOB") {
            self = .blob
        } else if ["REAL", "FLOA", "DOUB"].contains(where: type.contains) {
            self = .real
        } else {
            self = .numeric
        }
    }

    /// A declared type with exactly this affinity, for a column of a temporary table.
    package var sql: String { rawValue }
}
