// Benchmarks SimSecurity against raw SQLite, side by side in one run, and prints ratios.
//   1. SecItemAdd of N generic passwords, one call each, against a raw SQLite loop doing the same
//      INSERT into the same table and unique index, with the same journal (WAL) and sync (NORMAL)
//      settings, one transaction each. Wall time and this thread's CPU time are printed for both,
//      with the machine's load before and after (a busy machine shows in both).
//   2. SecItemCopyMatching by primary key: time per call at 100,000 items against 1,000 items.
//   3. Peak resident memory after 100,000 items.
// Build and run: scripts/bench keychain   (release build)
// `keychain-bench N adds` runs part 1 only (for profilers: valgrind --tool=callgrind).
// The raw baseline is the only code outside SimSecurity's wrapper that calls SQLite directly: it
// is what the wrapper is measured against.
import CSQLite
import Foundation
import SimRuntime
import SimSecurity

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// This thread's CPU time so far, in seconds.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Wall and CPU seconds of `body`.
func measured(_ body: () -> Void) -> (wall: Double, cpu: Double) {
    let cpuStart = cpuSeconds()
    let wall = seconds(body)
    return (wall, cpuSeconds() - cpuStart)
}

/// The load averages, as `uptime` prints them.
func load() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: ", ")
}

func folder() -> String {
    let path = NSTemporaryDirectory() + "keychain-bench-\(getpid())-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func value(_ index: Int) -> Data { Data(repeating: UInt8(truncatingIfNeeded: index), count: 48) }

/// The raw baseline: the same row into a table with the same unique index, one transaction per insert.
func rawInserts(_ count: Int, path: String) -> Double {
    var db: OpaquePointer?
    sqlite3_open(path, &db)
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;", nil, nil, nil)
    sqlite3_exec(db, KeychainBenchSchema.genp, nil, nil, nil)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
        db, "INSERT INTO genp(acct, agrp, cdat, data, mdat, pdmn, svce, sync) VALUES(?, ?, ?, ?, ?, ?, ?, ?)", -1, &statement, nil
    )
    let elapsed = seconds {
        for index in 0..<count {
            sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
            sqlite3_bind_text(statement, 1, "account-\(index)", -1, csqlite_transient())
            sqlite3_bind_text(statement, 2, AppIdentity.testHost.accessGroups[0], -1, csqlite_transient())
            sqlite3_bind_double(statement, 3, 0)
            value(index).withUnsafeBytes {
                _ = sqlite3_bind_blob(statement, 4, $0.baseAddress, Int32($0.count), csqlite_transient())
            }
            sqlite3_bind_double(statement, 5, 0)
            sqlite3_bind_text(statement, 6, "ak", -1, csqlite_transient())
            sqlite3_bind_text(statement, 7, "bench", -1, csqlite_transient())
            sqlite3_bind_int64(statement, 8, 0)
            if sqlite3_step(statement) != SQLITE_DONE { fatalError("raw insert failed") }
            sqlite3_reset(statement)
            sqlite3_exec(db, "COMMIT", nil, nil, nil)
        }
    }
    sqlite3_finalize(statement)
    sqlite3_close(db)
    return elapsed
}

enum KeychainBenchSchema {
    static let genp = """
        CREATE TABLE genp(rowid INTEGER PRIMARY KEY AUTOINCREMENT, acct BLOB NOT NULL, svce BLOB NOT NULL, gena BLOB,
        desc BLOB, icmt BLOB, crtr INTEGER, type INTEGER, invi INTEGER, nega INTEGER, agrp BLOB NOT NULL,
        sync INTEGER NOT NULL, pdmn BLOB, labl BLOB, cdat REAL, mdat REAL, data BLOB, accc BLOB);
        CREATE UNIQUE INDEX genpPrimaryKey ON genp(CAST(acct AS BLOB), CAST(svce AS BLOB), agrp, sync);
        """
}

func secItemInserts(_ range: Range<Int>, keychain: Keychain) -> Double {
    seconds {
        for index in range {
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "bench",
                kSecAttrAccount: "account-\(index)", kSecValueData: value(index),
            ]
            if keychain.add(query as CFDictionary, nil) != errSecSuccess { fatalError("SecItemAdd failed at \(index)") }
        }
    }
}

/// Time per lookup by primary key, over `lookups` random existing accounts below `population`.
func lookupTime(keychain: Keychain, population: Int, lookups: Int) -> Double {
    var generator = SplitMix(seed: 42)
    let accounts = (0..<lookups).map { _ in "account-\(Int(generator.next() % UInt64(population)))" }
    return seconds {
        for account in accounts {
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "bench",
                kSecAttrAccount: account, kSecReturnData: true,
            ]
            var result: CFTypeRef?
            if keychain.copyMatching(query as CFDictionary, &result) != errSecSuccess { fatalError("lookup failed") }
        }
    } / Double(lookups)
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func peakResidentMiB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    let kib = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return kib / 1024
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000 : 10_000
let work = folder()
defer { try? FileManager.default.removeItem(atPath: work) }

// 1. Inserts, alternating rounds so that disk and cache effects fall on both sides alike.
let loadBefore = load()
var rawWall = 0.0, rawCPU = 0.0, simWall = 0.0, simCPU = 0.0
for round in 0..<4 {
    var raw = 0.0
    let rawTime = measured { raw = rawInserts(count / 4, path: "\(work)/raw-\(round).db") }
    rawWall += raw
    rawCPU += rawTime.cpu
    let keychain = Keychain(.init(storage: .file("\(work)/sim-\(round).db")))
    var sim = 0.0
    let simTime = measured { sim = secItemInserts(0..<(count / 4), keychain: keychain) }
    simWall += sim
    simCPU += simTime.cpu
}
let rawRate = Double(count) / rawWall, simRate = Double(count) / simWall
print("SecItemAdd x \(count), one transaction each (WAL, synchronous=NORMAL)   load before: \(loadBefore)")
print(String(format: "  raw SQLite INSERT      %9.0f calls/s   wall %6.2f s   cpu %6.2f s", rawRate, rawWall, rawCPU))
print(String(format: "  SecItemAdd             %9.0f calls/s   wall %6.2f s   cpu %6.2f s", simRate, simWall, simCPU))
print(
    String(
        format: "  ratio SecItemAdd/raw   %9.2f   (bar: >= 0.80)  %@   (cpu ratio %.2f)   load after: %@", simRate / rawRate,
        simRate / rawRate >= 0.8 ? "ok" : "MISSED", rawCPU / simCPU, load()))

if CommandLine.arguments.count > 2, CommandLine.arguments[2] == "adds" { exit(0) }

// 2. Lookups by primary key at 1,000 and at 100,000 items.
let small = Keychain(.init(storage: .file("\(work)/lookup-small.db")))
_ = secItemInserts(0..<1_000, keychain: small)
let large = Keychain(.init(storage: .file("\(work)/lookup-large.db")))
_ = secItemInserts(0..<100_000, keychain: large)
var smallTime = 0.0, largeTime = 0.0
for _ in 0..<3 {
    smallTime += lookupTime(keychain: small, population: 1_000, lookups: 5_000)
    largeTime += lookupTime(keychain: large, population: 100_000, lookups: 5_000)
}
print("SecItemCopyMatching by primary key (kSecReturnData)")
print(String(format: "  at   1,000 items       %9.1f us/call", smallTime / 3 * 1e6))
print(String(format: "  at 100,000 items       %9.1f us/call", largeTime / 3 * 1e6))
print(
    String(
        format: "  ratio 100k/1k          %9.2f   (bar: <= 1.20)  %@", largeTime / smallTime,
        largeTime / smallTime <= 1.2 ? "ok" : "MISSED"))

// 3. Memory.
let peak = peakResidentMiB()
print(
    String(
        format: "Peak resident memory with 100,000 items: %.1f MiB   (bar: a few tens of MiB)  %@", peak,
        peak <= 64 ? "ok" : "MISSED"))
