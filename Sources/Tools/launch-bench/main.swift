// launch-bench: the cost of one app launch through SimDevice against the operating system's floor.
//
// Side by side, interleaved in one run: launching TinyApp on a simulated device (read the device
// record and install record, find the containers, spawn with a launch context, and in the app open
// the keychain, read one item, write a status file, exit), a bare posix_spawn + waitpid of
// `bare-exit` (a Foundation binary that only exits: the cost of loading Foundation), and of
// `bare-exit-c` (a C program that only exits: the operating system's true floor). Wall and CPU time
// (the children's user + system time, from getrusage) per launch, and the launcher's own CPU time
// over it (this process's, from getrusage); the bars are TinyApp within 2x of bare-exit and within
// 4x of the C floor.
//
// Beside them, a sample-app launch as the gate makes hundreds of: Ledger v3 verifying the keychain
// on a device that v1 seeded and v3 migrated (context, keychain, preferences, archive, status file).
// With `--against DIR`, a second such device runs the v3 and v1 executables of the products folder
// DIR, interleaved with the first, so two ways of building the app builds (link flags, a
// configuration, an older commit's products) are compared in one sitting, not an hour apart.
//
// Usage: swift build -c release && .build/release/launch-bench [--iterations N] [--against DIR]
import Foundation
import SimDevice
import SimRuntime
import TestSupport
import UpgradeContract

/// The benchmark's scratch folder (a device per product folder, some 230 MB), removed before any
/// exit: `exit` runs no deinitializer, and a run with `TMPDIR=/dev/shm` left it in memory.
nonisolated(unsafe) var scratchFolder: URL?

/// Removes the scratch folder and exits with `code`.
func finish(_ code: Int32) -> Never {
    if let scratchFolder { try? FileManager.default.removeItem(at: scratchFolder) }
    exit(code)
}

/// Ends with a one-line error: exit 3 for a benchmark that could not complete (a launch that
/// failed), 2 for bad usage or missing executables.
func fail(_ message: String, code: Int32 = 3) -> Never {
    FileHandle.standardError.write(Data("launch-bench: \(message)\n".utf8))
    finish(code)
}

/// The value after `flag`, if the flag was given; a flag without a value is bad usage.
func option(_ flag: String) -> String? {
    guard let index = CommandLine.arguments.firstIndex(of: flag) else { return nil }
    guard index + 1 < CommandLine.arguments.count else { fail("\(flag) needs a value", code: 2) }
    return CommandLine.arguments[index + 1]
}

var iterations = 100
if let text = option("--iterations") {
    guard let value = Int(text), value > 0 else { fail("--iterations: '\(text)' is not a positive whole number", code: 2) }
    iterations = value
}
/// Ends with a one-line error naming the first of `names` that `folder` lacks.
func require(_ names: [String], in folder: String, _ what: String) {
    if let missing = names.first(where: { !FileManager.default.isExecutableFile(atPath: folder + "/" + $0) }) {
        fail(
            "\(what)\(folder): no \(missing) there; build \(names.joined(separator: ", ")) first (scripts/bench launch does)",
            code: 2)
    }
}

/// The executables the Ledger launch runs: v1 seeds, v3 migrates and verifies.
let ledgerExecutables = ["LedgerV1", "LedgerV3"]
let against = option("--against").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
if let against { require(ledgerExecutables, in: against, "--against ") }

let products = BuiltProducts.directory.path
let bare = products + "/bare-exit"
let bareC = products + "/bare-exit-c"
require(["bare-exit", "bare-exit-c", "TinyApp"] + ledgerExecutables, in: products, "")

/// One measured launch: wall milliseconds, and the CPU milliseconds its process used.
struct Sample {
    var wall: Double
    var cpu: Double
    /// This process's own CPU milliseconds over the launch: what launching through SimDevice costs
    /// the launcher (the device record, the context, the spawn, reading the logs and status back).
    var launcher: Double
}

/// User + system milliseconds of `who` (this process, or its reaped children) so far.
func cpu(_ who: __rusage_who) -> Double {
    var usage = rusage()
    getrusage(who.rawValue, &usage)
    func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

func measure(_ body: () -> Void) -> Sample {
    let children = cpu(RUSAGE_CHILDREN), own = cpu(RUSAGE_SELF)
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Sample(
        wall: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, cpu: cpu(RUSAGE_CHILDREN) - children,
        launcher: cpu(RUSAGE_SELF) - own)
}

let scratch = try TemporaryDirectory("launch-bench")
scratchFolder = scratch.url
let buildFolder = scratch.file("builds/tiny")
try FileManager.default.createDirectory(atPath: buildFolder, withIntermediateDirectories: true)
let manifest = BuildManifest(
    id: "tiny", bundleID: "com.example.tiny", marketingVersion: "1.0", buildNumber: "1",
    executable: "TinyApp", schemaVersion: 1, entitlements: "Tiny.entitlements")
try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: buildFolder + "/build.json"))
let entitlements: [String: Any] = ["application-identifier": "BENCHTEAM1.com.example.tiny"]
try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
    .write(to: URL(fileURLWithPath: buildFolder + "/Tiny.entitlements"))

let session: DeviceSession
do {
    let device = try DeviceSet(root: scratch.file("devices")).create(name: "bench")
    session = try device.acquire()
    try session.install(try BuildCatalog(folder: scratch.file("builds"), productsFolder: products).build("tiny"))
    try session.boot()
    let seeded = try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"]))
    guard seeded.exitedCleanly else { fail("seeding launch \(seeded.termination); log: \(seeded.logPath)") }
} catch {
    fail("\(error)")
}

/// The automation arguments of a Ledger launch in `mode` for the case `bench`.
func ledgerArguments(_ mode: LaunchMode) -> [String] { [mode.argument!, LaunchMode.caseIDArgument, "bench"] }

/// A device with Ledger v1 seeded for the case `bench` and upgraded in place to v3, which migrated;
/// its executables come from `productsFolder`.
func ledgerDevice(_ name: String, productsFolder: String) -> (DeviceSession, String) {
    do {
        let catalog = BuildCatalog(folder: BuiltProducts.repositoryBuilds, productsFolder: productsFolder)
        let device = try DeviceSet(root: scratch.file("devices")).create(name: name)
        let session = try device.acquire()
        try session.boot()
        let old = try catalog.build("v1")
        try session.install(old)
        let bundleID = old.manifest.bundleID
        let seeded = try session.launch(bundleID, LaunchOptions(arguments: ledgerArguments(.seed)))
        guard seeded.exitedCleanly else { fail("v1 seed (\(productsFolder)) \(seeded.termination); log: \(seeded.logPath)") }
        try session.install(try catalog.build("v3"))
        let migrated = try session.launch(bundleID)
        guard migrated.exitedCleanly else {
            fail("v3 launch (\(productsFolder)) \(migrated.termination); log: \(migrated.logPath)")
        }
        return (session, bundleID)
    } catch {
        fail("\(error)")
    }
}

let ledger = ledgerDevice("ledger", productsFolder: products)
let ledgerAgainst = against.map { ledgerDevice("ledger-against", productsFolder: $0) }

func verifyLaunch(_ device: (DeviceSession, String)) -> Sample {
    measure {
        do {
            let result = try device.0.launch(device.1, LaunchOptions(arguments: ledgerArguments(.verify)))
            guard result.exitedCleanly else { fail("v3 verify \(result.termination); log: \(result.logPath)") }
            // A launch that failed fast would flatter the figure: the seeded secrets must read back.
            guard let data = result.statusFile, let status = try? LaunchStatus.decode(data),
                status.errors.isEmpty, status.items.filter({ $0.result == .found }).count >= 4
            else { fail("v3 verify did not read back the seeded secrets; log: \(result.logPath)") }
        } catch {
            fail("\(error)")
        }
    }
}

func bareSpawn(_ path: String) -> Sample {
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
    let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
    defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
    return measure {
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, nil, nil, argv, envp) == 0 else { fail("cannot spawn \(path)") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { fail("\(path) ended with status \(status)") }
    }
}

func deviceLaunch() -> Sample {
    measure {
        do {
            let result = try session.launch("com.example.tiny")
            guard result.exitedCleanly else { fail("TinyApp \(result.termination); log: \(result.logPath)") }
        } catch {
            fail("\(error)")
        }
    }
}

for _ in 0..<5 {
    _ = bareSpawn(bareC)
    _ = bareSpawn(bare)
    _ = deviceLaunch()
    _ = verifyLaunch(ledger)
    if let ledgerAgainst { _ = verifyLaunch(ledgerAgainst) }
}
var cTimes: [Sample] = []
var bareTimes: [Sample] = []
var deviceTimes: [Sample] = []
var ledgerTimes: [Sample] = []
var againstTimes: [Sample] = []
let load =
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
for _ in 0..<iterations {
    cTimes.append(bareSpawn(bareC))
    bareTimes.append(bareSpawn(bare))
    deviceTimes.append(deviceLaunch())
    ledgerTimes.append(verifyLaunch(ledger))
    if let ledgerAgainst { againstTimes.append(verifyLaunch(ledgerAgainst)) }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
func format(_ value: Double) -> String { String(format: "%7.2f", value) }
func row(_ name: String, _ samples: [Sample]) -> String {
    let wall = samples.map(\.wall)
    return name.padding(toLength: 44, withPad: " ", startingAt: 0)
        + "\(format(median(wall)))   \(format(mean(wall)))  \(format(wall.min()!))   \(format(mean(samples.map(\.cpu))))"
        + "    \(format(mean(samples.map(\.launcher))))"
}

let ratio = median(deviceTimes.map(\.wall)) / median(bareTimes.map(\.wall))
let floorRatio = median(deviceTimes.map(\.wall)) / median(cTimes.map(\.wall))
print("launch-bench: \(iterations) launches each, interleaved; products \(products); load \(load) (before)")
print("                                          median ms   mean ms   min ms   CPU ms (mean)   launcher CPU ms (mean)")
print(row("bare posix_spawn+waitpid of bare-exit-c (C)", cTimes))
print(row("bare posix_spawn+waitpid of bare-exit", bareTimes))
print(row("TinyApp launched through SimDevice", deviceTimes))
print(row("Ledger v3 verify launched through SimDevice", ledgerTimes))
if let against {
    print(row("the same, products of --against", againstTimes))
    print("  --against: \(against)")
    print(
        String(
            format: "Ledger v3 verify against --against: %.2fx CPU (means), %.2fx wall (medians)",
            mean(ledgerTimes.map(\.cpu)) / mean(againstTimes.map(\.cpu)),
            median(ledgerTimes.map(\.wall)) / median(againstTimes.map(\.wall))))
}
print(String(format: "ratio to bare-exit (median): %.2fx  bar: within 2x  %@", ratio, ratio <= 2 ? "MET" : "NOT MET"))
print(String(format: "ratio to the C floor (median): %.2fx  bar: within 4x  %@", floorRatio, floorRatio <= 4 ? "MET" : "NOT MET"))
finish(ratio <= 2 ? 0 : 1)
