import Foundation
import SimRuntime
import TestSupport
import Testing
@testable import SimSecurity

@Suite("Storage: layout, atomicity and bad input")
struct StorageTests {
    @Test("the database uses WAL, the real table and column names, and a unique primary-key index per class")
    func layout() throws {
        let tmp = try TemporaryDirectory()
        let keychain = makeKeychain(path: tmp.file("keychain-2-debug.db"))
        let database = try #require(keychain.store).database
        let mode = try database.statement("PRAGMA journal_mode")
        #expect(try mode.step() && mode.value(0) == .text("wal"))
        mode.reset()
        for (table, key) in [
            ("genp", "CAST(acct AS BLOB), CAST(svce AS BLOB), agrp, sync"),
            (
                "inet",
                "CAST(acct AS BLOB), CAST(sdmn AS BLOB), CAST(srvr AS BLOB), ptcl, CAST(atyp AS BLOB), port, CAST(path AS BLOB), agrp, sync"
            ),
            ("cert", "ctyp, CAST(issr AS BLOB), CAST(slnr AS BLOB), agrp, sync"),
            ("keys", "kcls, CAST(klbl AS BLOB), CAST(atag AS BLOB), crtr, type, bsiz, esiz, sdat, edat, agrp, sync"),
        ] {
            let found = try database.scalarInt(
                "SELECT count(*) FROM sqlite_master WHERE name = '\(table)PrimaryKey' AND sql LIKE '%UNIQUE INDEX%(\(key))'")
            #expect(found == 1, "\(table)")
        }
        // A primary-key lookup, as the keychain words it (strings compared as bytes, row 44), uses
        // the index, not a scan.
        var filter = RowFilter()
        filter.require(bytesOf: "acct", equal: .text("a"))
        filter.require(bytesOf: "svce", equal: .text("s"))
        filter.require("agrp", in: [.text("g"), .text("h")])
        filter.require("sync", equals: .integer(0))
        let plan = try database.statement("EXPLAIN QUERY PLAN SELECT * FROM genp\(filter.sql)")
        try plan.bind(filter.bindings)
        var details: [String] = []
        while try plan.step() { if case .text(let text) = plan.value(3) { details.append(text) } }
        #expect(details.contains { $0.contains("USING INDEX genpPrimaryKey") })
    }

    @Test("accessibility is stored as the pdmn codes")
    func pdmnCodes() throws {
        let keychain = makeKeychain()
        let classes: [(CFString, String)] = [
            (kSecAttrAccessibleWhenUnlocked, "ak"), (kSecAttrAccessibleAfterFirstUnlock, "ck"), (kSecAttrAccessibleAlways, "dk"),
            (kSecAttrAccessibleWhenUnlockedThisDeviceOnly, "aku"), (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, "cku"),
            (kSecAttrAccessibleAlwaysThisDeviceOnly, "dku"), (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "akpu"),
        ]
        for (constant, _) in classes {
            #expect(keychain.add(password(constant as String, [kSecAttrAccessible: constant])) == errSecSuccess)
        }
        #expect(try keychain.dump().map(\.accessible) == classes.map(\.1))
    }

    @Test("a writer killed with SIGKILL mid-run leaves an intact store holding exactly the calls that committed")
    func killedWriter() throws {
        let tmp = try TemporaryDirectory()
        let database = tmp.file("keychain.db")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("keychain-writer"))
        process.arguments = [database, "100000"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var printed = Data()
        while printed.split(separator: UInt8(ascii: "\n")).count < 300 {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        printed.append(out.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let acknowledged = String(decoding: printed, as: UTF8.self).split(separator: "\n").count
        #expect(acknowledged >= 300 && acknowledged < 100_000)

        let keychain = makeKeychain(path: database)
        let check = try #require(keychain.store).database.statement("PRAGMA integrity_check")
        #expect(try check.step() && check.value(0) == .text("ok"))
        check.reset()
        let items = try keychain.dump()
        // Every acknowledged call is there; at most the one call in flight committed without its line.
        #expect(items.count >= acknowledged && items.count <= acknowledged + 1)
        for (index, item) in items.enumerated() {
            #expect(item.account == "item-\(index)")
            #expect(item.data == Data(repeating: UInt8(truncatingIfNeeded: index), count: 64 + index % 512), "item-\(index)")
        }
    }

    @Test(
        "bad store files answer a clear status, print one line naming the file, and are left untouched",
        arguments: BadStore.allCases)
    func badStore(_ bad: BadStore) throws {
        let tmp = try TemporaryDirectory()
        let path = try bad.make(in: tmp)
        let before = FileManager.default.contents(atPath: path)
        let keychain = makeKeychain(path: path)
        let error = try #require(keychain.openError)
        #expect(error.status == bad.expectedStatus)
        #expect(error.description.hasPrefix("keychain \(path): "))
        #expect(!error.description.contains("\n"))
        #expect(keychain.add(password("a")) == bad.expectedStatus)
        #expect(keychain.copy(password("a")).status == bad.expectedStatus)
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(throws: KeychainOpenError.self) { try keychain.dump() }
    }
}

/// Files a keychain must refuse.
enum BadStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case corrupt, notKeychain, newerSchema, unwritableFolder, directory

    var testDescription: String { rawValue }

    var expectedStatus: OSStatus {
        switch self {
        case .corrupt, .notKeychain: errSecDecode
        case .newerSchema: errSecNotAvailable
        case .unwritableFolder, .directory: errSecIO
        }
    }

    func make(in tmp: TemporaryDirectory) throws -> String {
        let path = tmp.file("keychain-2-debug.db")
        switch self {
        case .corrupt:
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        case .notKeychain:
            try sqlite(path, "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES('hello');")
        case .newerSchema:
            let keychain = makeKeychain(path: path)
            try #require(keychain.store).database.execute("INSERT INTO tversion(version, minor) VALUES(99, 0)")
        case .unwritableFolder:
            // A path below a regular file: its folder cannot exist, whoever runs the test (root included).
            let file = tmp.file("plain-file")
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            return file + "/keychain-2-debug.db"
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        return path
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let keychainFree = try SQLiteDatabase(path: path, create: true)
        try keychainFree.execute(sql)
    }
}
