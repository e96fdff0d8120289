import Foundation

/// A keychain database that could not be opened, with the OSStatus every call then answers.
public struct KeychainOpenError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var status: OSStatus
    public var reason: String

    public var description: String {
        "keychain \(path): \(reason) (\(SecurityStatus(status)))"
    }
}

/// A row read from an item table: its rowid and its columns by name.
struct StoredRow {
    var rowid: Int64
    var columns: [String: SQLiteValue]

    subscript(_ column: String) -> SQLiteValue? { columns[column] }

    var accessibility: Accessibility? {
        if case .text(let raw)? = columns["pdmn"] { return Accessibility(rawValue: raw) }
        return nil
    }

    var isSynchronizable: Bool {
        if case .integer(let value)? = columns["sync"] { return value != 0 }
        return false
    }
}

/// A class's table: its columns in order (the attributes, then `data` and `accc`) and the INSERT
/// that names them all.
/// The positions of the columns every add sets are worked out once, not hashed per call.
final class TableLayout: Sendable {
    let itemClass: ItemClass
    let columns: [String]
    let insertSQL: String
    let agrp: Int, sync: Int, pdmn: Int, cdat: Int, mdat: Int, data: Int, accc: Int

    private init(_ itemClass: ItemClass) {
        self.itemClass = itemClass
        columns = itemClass.attributes.map(\.key) + ["data", "accc"]
        let index = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        (agrp, sync, pdmn, cdat, mdat) = (index["agrp"]!, index["sync"]!, index["pdmn"]!, index["cdat"]!, index["mdat"]!)
        (data, accc) = (index["data"]!, index["accc"]!)
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        insertSQL = "INSERT INTO \(itemClass.table)(\(columns.joined(separator: ", "))) VALUES(\(marks))"
    }

    private static let genp = TableLayout(.genericPassword)
    private static let inet = TableLayout(.internetPassword)
    private static let cert = TableLayout(.certificate)
    private static let keys = TableLayout(.key)

    /// The layout of a stored class (identities have no table; they are never inserted).
    static func of(_ itemClass: ItemClass) -> TableLayout {
        switch itemClass {
        case .genericPassword: genp
        case .internetPassword: inet
        case .certificate: cert
        case .key, .identity: keys
        }
    }
}

/// The values of a row to insert, one per column of its table (NULL where an add gave none).
struct NewRow {
    let layout: TableLayout
    private(set) var values: [SQLiteValue]

    init(_ itemClass: ItemClass) {
        layout = TableLayout.of(itemClass)
        values = Array(repeating: .null, count: layout.columns.count)
    }

    subscript(_ column: Int) -> SQLiteValue {
        get { values[column] }
        set { values[column] = newValue }
    }

    /// The row as a search would read it back.
    func stored(rowid: Int64) -> StoredRow {
        var columns: [String: SQLiteValue] = [:]
        for (name, value) in zip(layout.columns, values) where value != .null { columns[name] = value }
        return StoredRow(rowid: rowid, columns: columns)
    }
}

/// A WHERE clause and its bindings.
struct RowFilter {
    var conditions: [String] = []
    var bindings: [SQLiteValue] = []

    mutating func require(_ column: String, equals value: SQLiteValue) {
        conditions.append("\(column) = ?")
        bindings.append(value)
    }

    /// Compares a string-or-bytes column as bytes, so that "a" and `Data("a".utf8)` are equal
    /// (row 44); the primary-key index is on the same expression, so the search uses it.
    mutating func require(bytesOf column: String, equal value: SQLiteValue) {
        conditions.append("CAST(\(column) AS BLOB) = ?")
        bindings.append(value.asBytes)
    }

    mutating func require(_ column: String, in values: [SQLiteValue]) {
        conditions.append("\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
        bindings.append(contentsOf: values)
    }

    var sql: String { conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ") }
}

/// The keychain's SQLite database: one table per item class with the real keychain's table and
/// column names, a unique index on each class's primary key, WAL journal.
///
/// Schema history is append-only: version 1 indexed string and blob columns by value; version 2
/// indexes them by their bytes (row 44), and a version-1 file is migrated once, in one
/// transaction. A database whose `tversion` is newer than this code is refused with
/// errSecNotAvailable rather than misread.
final class KeychainStore {
    static let schemaVersion: Int64 = 2

    let database: SQLiteDatabase
    let path: String
    /// `PRAGMA synchronous`: `NORMAL` (survives a power loss) or `OFF` (survives a killed process).
    private let synchronous: String

    /// Opens the store, creating the schema in an empty or new database. Never deletes,
    /// truncates or recreates an existing file.
    init(path: String, inMemory: Bool, syncs: Bool = true) throws(KeychainOpenError) {
        self.path = path
        self.synchronous = syncs ? "NORMAL" : "OFF"
        let fileManager = FileManager.default
        if !inMemory {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw KeychainOpenError(path: path, status: errSecIO, reason: "is a directory, not a database file")
            }
            let folder = (path as NSString).deletingLastPathComponent
            if !fileManager.fileExists(atPath: path), !fileManager.isWritableFile(atPath: folder.isEmpty ? "." : folder) {
                throw KeychainOpenError(
                    path: path, status: errSecIO, reason: "cannot create the database: folder is missing or not writable")
            }
        }
        do {
            database = try SQLiteDatabase(path: inMemory ? ":memory:" : path, create: true)
        } catch {
            throw KeychainOpenError(path: path, status: errSecIO, reason: "cannot open: \(error.message)")
        }
        do {
            try prepareSchema(inMemory: inMemory)
        } catch let error as KeychainOpenError {
            throw error
        } catch let error as SQLiteError {
            switch error.code {
            case .notADatabase, .corrupt:
                throw KeychainOpenError(path: path, status: errSecDecode, reason: "not a keychain database (\(error.message))")
            default:
                throw KeychainOpenError(path: path, status: errSecIO, reason: error.message)
            }
        } catch {
            throw KeychainOpenError(path: path, status: errSecIO, reason: "\(error)")
        }
    }

    private func prepareSchema(inMemory: Bool) throws {
        // Reading the schema is the first access to the file: a non-database fails here.
        let tables = try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
        if tables == 0 {
            if !inMemory {
                try database.execute("PRAGMA journal_mode = WAL")
            }
            try database.execute("PRAGMA synchronous = \(synchronous)")
            // Two processes can open a new file at once: the one that takes the write lock first
            // creates the schema, the other finds it made.
            let created = try database.transaction(immediate: true) { () throws -> Bool in
                guard try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'") == 0 else { return false }
                try database.execute(Self.schemaSQL)
                return true
            }
            if created { return }
        }
        guard
            try database.scalarInt(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('tversion', 'genp', 'inet', 'cert', 'keys')"
            ) == 5
        else {
            throw KeychainOpenError(path: path, status: errSecDecode, reason: "not a keychain database (no keychain tables)")
        }
        let version = try database.scalarInt("SELECT max(version) FROM tversion") ?? 0
        if version > Self.schemaVersion {
            throw KeychainOpenError(
                path: path, status: errSecNotAvailable,
                reason: "written by a newer schema version (\(version); this build reads up to \(Self.schemaVersion))")
        }
        if version < 1 {
            throw KeychainOpenError(
                path: path, status: errSecDecode, reason: "keychain schema version \(version) is not one this build knows")
        }
        if version < 2 {
            try migrateToByteKeys()
        }
        if !inMemory {
            try database.execute("PRAGMA journal_mode = WAL")
        }
        try database.execute("PRAGMA synchronous = \(synchronous)")
    }

    /// The schema, generated from the item classes so that columns and primary keys cannot drift.
    static let schemaSQL: String = {
        var sql = """
            CREATE TABLE tversion(rowid INTEGER PRIMARY KEY AUTOINCREMENT, version INTEGER, minor INTEGER);
            INSERT INTO tversion(version, minor) VALUES(\(schemaVersion), 0);

            """
        for itemClass in ItemClass.stored {
            let columns = itemClass.attributes.map { spec -> String in
                let type =
                    switch spec.kind {
                    case .text, .blob: "BLOB"
                    case .integer, .bool, .fourCC: "INTEGER"
                    case .date: "REAL"
                    }
                return spec.primaryKey ? "\(spec.key) \(type) NOT NULL" : "\(spec.key) \(type)"
            }
            let all = ["rowid INTEGER PRIMARY KEY AUTOINCREMENT"] + columns + ["data BLOB", "accc BLOB"]
            sql += "CREATE TABLE \(itemClass.table)(\(all.joined(separator: ", ")));\n"
            sql += primaryKeyIndexSQL(itemClass)
        }
        return sql
    }()

    /// The unique index on a class's primary key; string and blob columns by their bytes (row 44).
    static func primaryKeyIndexSQL(_ itemClass: ItemClass) -> String {
        let key = itemClass.primaryKey.map { spec in
            switch spec.kind {
            case .text where spec.key != "agrp", .blob: "CAST(\(spec.key) AS BLOB)"
            default: spec.key
            }
        }
        let table = itemClass.table
        return "CREATE UNIQUE INDEX \(table)PrimaryKey ON \(table)(\(key.joined(separator: ", ")));\n"
    }

    /// Version 1 to 2: the primary-key indexes compare strings and bytes alike. Items that
    /// version 1 kept apart but iOS counts as one (the same account as a string and as data)
    /// make the migration fail, and the file is reported rather than changed.
    private func migrateToByteKeys() throws {
        try database.transaction(immediate: true) {
            guard try database.scalarInt("SELECT max(version) FROM tversion") == 1 else { return }
            for itemClass in ItemClass.stored {
                try database.execute("DROP INDEX IF EXISTS \(itemClass.table)PrimaryKey")
                do {
                    try database.execute(Self.primaryKeyIndexSQL(itemClass))
                } catch let error as SQLiteError where error.isKeyCollision {
                    throw KeychainOpenError(
                        path: path, status: errSecDecode,
                        reason: "\(itemClass.table) holds items iOS counts as one (strings and data of the same bytes)")
                }
            }
            try database.execute("INSERT INTO tversion(version, minor) VALUES(2, 0)")
        }
    }

    // MARK: Rows

    /// Each class's INSERT, prepared once and held here: looking it up by its text on every add
    /// would hash that text each time.
    private var insertStatements: [ItemClass: SQLiteStatement] = [:]

    /// Inserts a row; a primary-key collision throws a constraint error.
    func insert(_ row: NewRow) throws(SQLiteError) -> Int64 {
        let statement: SQLiteStatement
        if let prepared = insertStatements[row.layout.itemClass] {
            prepared.reset()
            statement = prepared
        } else {
            statement = try database.statement(row.layout.insertSQL)
            insertStatements[row.layout.itemClass] = statement
        }
        try statement.run(row.values)
        return database.lastInsertRowID
    }

    /// Reads the rows that match `filter`, in rowid order, up to `limit`.
    func select(from itemClass: ItemClass, _ filter: RowFilter, limit: Int?) throws(SQLiteError) -> [StoredRow] {
        let limitSQL = limit.map { " LIMIT \($0)" } ?? ""
        let statement = try database.statement("SELECT * FROM \(itemClass.table)\(filter.sql) ORDER BY rowid\(limitSQL)")
        try statement.bind(filter.bindings)
        var rows: [StoredRow] = []
        let count = statement.columnCount
        while try statement.step() {
            var columns: [String: SQLiteValue] = [:]
            var rowid: Int64 = 0
            for index in 0..<count {
                let name = statement.columnName(index)
                if name == "rowid" { rowid = statement.int(index) } else { columns[name] = statement.value(index) }
            }
            rows.append(StoredRow(rowid: rowid, columns: columns))
        }
        return rows
    }

    /// Sets columns of one row.
    func update(_ itemClass: ItemClass, rowid: Int64, _ columns: [(String, SQLiteValue)]) throws(SQLiteError) {
        let assignments = columns.map { "\($0.0) = ?" }.joined(separator: ", ")
        try database.statement("UPDATE \(itemClass.table) SET \(assignments) WHERE rowid = ?")
            .run(columns.map(\.1) + [.integer(rowid)])
    }

    /// Deletes one row.
    func delete(_ itemClass: ItemClass, rowid: Int64) throws(SQLiteError) {
        try database.statement("DELETE FROM \(itemClass.table) WHERE rowid = ?").run([.integer(rowid)])
    }
}
