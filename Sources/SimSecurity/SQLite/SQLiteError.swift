/// An SQLite result code: an open set, so unknown codes survive and `catch` can match named ones.
struct SQLiteResultCode: RawRepresentable, Hashable, Sendable {
    var rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code, without the extended bits.
    var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    static let ok = SQLiteResultCode(rawValue: 0)
    static let error = SQLiteResultCode(rawValue: 1)
    static let permission = SQLiteResultCode(rawValue: 3)
    static let busy = SQLiteResultCode(rawValue: 5)
    static let locked = SQLiteResultCode(rawValue: 6)
    static let readOnly = SQLiteResultCode(rawValue: 8)
    static let ioError = SQLiteResultCode(rawValue: 10)
    static let corrupt = SQLiteResultCode(rawValue: 11)
    static let full = SQLiteResultCode(rawValue: 13)
    static let cantOpen = SQLiteResultCode(rawValue: 14)
    static let constraint = SQLiteResultCode(rawValue: 19)
    /// SQLITE_CONSTRAINT_PRIMARYKEY and SQLITE_CONSTRAINT_UNIQUE: a key collision.
    static let primaryKeyConstraint = SQLiteResultCode(rawValue: 1555)
    static let uniqueConstraint = SQLiteResultCode(rawValue: 2067)
    static let notADatabase = SQLiteResultCode(rawValue: 26)
    static let row = SQLiteResultCode(rawValue: 100)
    static let done = SQLiteResultCode(rawValue: 101)

    static func ~= (pattern: SQLiteResultCode, value: SQLiteResultCode) -> Bool {
        pattern == value.primary || pattern == value
    }
}

/// A failed SQLite call: the code, SQLite's message, and the statement or file it concerned.
struct SQLiteError: Error, CustomStringConvertible, Sendable {
    var code: SQLiteResultCode
    var message: String
    var context: String

    /// Whether the call failed because a row with the same unique key exists.
    var isKeyCollision: Bool { code == .uniqueConstraint || code == .primaryKeyConstraint }

    var description: String { "\(context): \(message) (SQLite \(code.rawValue))" }
}
