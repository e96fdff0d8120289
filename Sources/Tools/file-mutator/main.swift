// A launched app that changes files the way iOS code does (Foundation, no harness API), for the
// file supervisor's tests: starts the supervisor from its launch context, runs each step and
// prints one line per step, `ok` or the error's errno (negated: a Cocoa error's code, when it has no errno).
// Usage: file-mutator STEP... where a STEP is one argument:
//   write:REL=TEXT      Data.write (not atomic) into the data container
//   atomic:REL=TEXT     Data.write(options: .atomic)
//   mkdir:REL           FileManager.createDirectory(withIntermediateDirectories: true)
//   remove:REL          FileManager.removeItem
//   move:REL=REL2       FileManager.moveItem
//   copy:REL=REL2       FileManager.copyItem
//   outside:ABS=TEXT    Data.write to an absolute path
//   null                writes to /dev/null (never reported)
//   bare:REL=TEXT       open(O_CREAT|O_TRUNC) and write(2), no fsync (what a power loss can take)
//   append:REL=TEXT     open(O_APPEND) and write(2), no fsync
//   fsync:REL           open for writing and fsync(2)
//   read:REL            Data(contentsOf:), printed as `ok TEXT`
//   sqlite:REL=TEXT     the app's own SQLite database (as GRDB or Core Data use it): created with a table,
//                       TEXT inserted in a transaction (rollback journal, synchronous FULL)
//   store-sqlite:REL=TEXT  the same as a store operation the seam numbers itself (the keychain's
//                       database, without syncs): on a vouched thread (ProcessSupervisor.unsupervised)
//   served              prints `ok N`: the trapped calls the supervisor thread has served so far
internal import CSQLite
import Foundation
import SimRuntime
import SimSupervision

guard let context = LaunchContext.current else {
    FileHandle.standardError.write(Data("file-mutator: no launch context\n".utf8))
    exit(2)
}
do {
    try FileSupervision.start(context, seam: .process)
} catch {
    FileHandle.standardError.write(Data("file-mutator: \(error)\n".utf8))
    exit(3)
}
let home = URL(fileURLWithPath: context.dataContainer, isDirectory: true)

/// Creates the database at `path` with a table and inserts `text`; nil, or SQLite's message. A store's
/// database does not sync (`synchronous = OFF`, as a simulated device's keychain without power loss).
func sqliteInsert(_ path: String, _ text: String, syncs: Bool) -> String? {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
        return "cannot open \(path)"
    }
    defer { sqlite3_close_v2(db) }
    let sql =
        (syncs ? "" : "PRAGMA synchronous = OFF; ")
        + "CREATE TABLE IF NOT EXISTS t(v TEXT); BEGIN; INSERT INTO t(v) VALUES('\(text)'); COMMIT;"
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { return String(cString: sqlite3_errmsg(db)) }
    return nil
}

func errnoOf(_ error: Error) -> Int {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return underlying.code
    }
    return ns.domain == NSPOSIXErrorDomain ? ns.code : -ns.code
}

for step in CommandLine.arguments.dropFirst() {
    let (verb, rest) =
        step.firstIndex(of: ":").map { (String(step[..<$0]), String(step[step.index(after: $0)...])) } ?? (step, "")
    let parts = rest.split(separator: "=", maxSplits: 1).map(String.init)
    let first = parts.first ?? ""
    let second = parts.count > 1 ? parts[1] : ""
    do {
        switch verb {
        case "write": try Data(second.utf8).write(to: home.appendingPathComponent(first))
        case "atomic": try Data(second.utf8).write(to: home.appendingPathComponent(first), options: .atomic)
        case "mkdir":
            try FileManager.default.createDirectory(at: home.appendingPathComponent(first), withIntermediateDirectories: true)
        case "remove": try FileManager.default.removeItem(at: home.appendingPathComponent(first))
        case "move":
            try FileManager.default.moveItem(at: home.appendingPathComponent(first), to: home.appendingPathComponent(second))
        case "copy":
            try FileManager.default.copyItem(at: home.appendingPathComponent(first), to: home.appendingPathComponent(second))
        case "outside": try Data(second.utf8).write(to: URL(fileURLWithPath: first))
        case "null": try Data("x".utf8).write(to: URL(fileURLWithPath: "/dev/null"))
        case "bare", "append", "fsync":
            let flags = verb == "bare" ? O_CREAT | O_TRUNC : verb == "append" ? O_CREAT | O_APPEND : 0
            let fd = open(home.appendingPathComponent(first).path, O_WRONLY | O_CLOEXEC | flags, 0o644)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(fd) }
            let done = verb == "fsync" ? fsync(fd) : second.withCString { write(fd, $0, strlen($0)) < 0 ? -1 : 0 }
            guard done == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        case "sqlite", "store-sqlite":
            let path = home.appendingPathComponent(first).path
            let failure =
                verb == "sqlite"
                ? sqliteInsert(path, second, syncs: true)
                : ProcessSupervisor.unsupervised { sqliteInsert(path, second, syncs: false) }
            if let failure {
                print("error " + failure)
                continue
            }
        case "served":
            print("ok \(FileSupervision.notifications)")
            continue
        case "read":
            print("ok " + String(decoding: try Data(contentsOf: home.appendingPathComponent(first)), as: UTF8.self))
            continue
        default:
            FileHandle.standardError.write(Data("file-mutator: unknown step \(step)\n".utf8))
            exit(2)
        }
        print("ok")
    } catch {
        print("error \(errnoOf(error))")
    }
}
