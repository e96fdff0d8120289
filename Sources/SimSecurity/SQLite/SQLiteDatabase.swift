internal import CSQLite
import Foundation

/// One SQLite connection. The only type (with ``SQLiteStatement``) that touches the C API; it
/// closes in `deinit` and keeps one prepared statement per SQL text.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (and, when `create` is set, creates) the database at `path`, or `:memory:`.
    init(path: String, create: Bool) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: SQLiteResultCode(rawValue: code), message: message, context: path)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Checks a result code from a call on this connection.
    @discardableResult
    func check(_ code: Int32, _ context: @autoclosure () -> String) throws(SQLiteError) -> Int32 {
        switch code {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return code
        default:
            throw SQLiteError(
                code: SQLiteResultCode(rawValue: code),
                message: String(cString: sqlite3_errmsg(handle)), context: context())
        }
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
    }

    /// The prepared statement for `sql`, reset and with its bindings cleared.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil), sql)
        guard let raw else {
            throw SQLiteError(code: .error, message: "empty statement", context: sql)
        }
        let statement = SQLiteStatement(raw, database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// `immediate` takes the write lock at the start, so two writers never deadlock upgrading.
    func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Reads a single integer (PRAGMA values, counts).
    func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql)
        // Reset before returning: a statement left mid-result holds a read transaction open.
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.int(0)
    }
}

/// A value bound to or read from a statement.
enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLiteValue {
    /// A string as its UTF-8 bytes; other values unchanged.
    var asBytes: SQLiteValue {
        if case .text(let string) = self { return .blob(Data(string.utf8)) }
        return self
    }
}

/// A prepared statement; finalized in `deinit`.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteDatabase
    let sql: String

    fileprivate init(_ handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds values to the parameters, in order from 1. NULLs are skipped: a statement comes
    /// from ``SQLiteDatabase/statement(_:)`` with its bindings cleared, and an INSERT of a whole
    /// row is mostly NULLs.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            if case .null = value { continue }
            try bind(value, at: Int32(offset + 1))
        }
    }

    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
        case .real(let number): code = sqlite3_bind_double(handle, index, number)
        case .text(var string):
            // The byte length, not -1: a string with a NUL in it is stored whole. `withUTF8`
            // lends a native string's own buffer (no copy into an array).
            code = string.withUTF8 { buffer in
                // An empty buffer may have no base address, which SQLite would bind as NULL.
                guard let base = buffer.baseAddress, !buffer.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(buffer.count), csqlite_transient())
                }
            }
        case .blob(let data):
            code = data.withUnsafeBytes { buffer in
                // A zero-length blob must still bind as a blob, not NULL.
                sqlite3_bind_blob(
                    handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                    Int32(buffer.count), csqlite_transient())
            }
        }
        if code != SQLITE_OK { try database.check(code, sql) }
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws(SQLiteError) -> Bool {
        try database.check(sqlite3_step(handle), sql) == SQLITE_ROW
    }

    /// Steps until done, for statements that return no rows.
    func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    func columnName(_ index: Int) -> String { String(cString: sqlite3_column_name(handle, Int32(index))) }

    func int(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// The value of a column in the current row, in its stored type.
    func value(_ index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }
}
