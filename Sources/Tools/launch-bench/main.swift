// launch-bench: the cost of one app launch through SimDevice against the operating system's floor.
//
// Side by side, interleaved in one run: launching TinyApp on a simulated device (read the device
// record and install record, find the containers, spawn with a launch context, and in the app open
// the keychain, read one item, write a status file, exit), a bare posix_spawn + waitpid of
// `bare-exit` (a Foundation binary that only exits: the cost of loading Foundation), and of
// `bare-exit-c` (a C program that only exits: the operating system's true floor). Wall and CPU time
// (the children's user + system time, from getrusage) per launch; the bars are TinyApp within 2x
// of bare-exit and within 4x of the C floor.
//
// Usage: swift build -c release && .build/release/launch-bench [--iterations N]
import Foundation
import SimDevice
import SimRuntime
import TestSupport

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("launch-bench: \(message)\n".utf8))
    exit(2)
}

var iterations = 100
if let index = CommandLine.arguments.firstIndex(of: "--iterations"), index + 1 < CommandLine.arguments.count,
    let value = Int(CommandLine.arguments[index + 1]), value > 0
{
    iterations = value
}

let products = BuiltProducts.directory.path
let bare = products + "/bare-exit"
let bareC = products + "/bare-exit-c"
guard FileManager.default.isExecutableFile(atPath: bare), FileManager.default.isExecutableFile(atPath: bareC),
    FileManager.default.isExecutableFile(atPath: products + "/TinyApp")
else {
    fail("build TinyApp, bare-exit and bare-exit-c first (swift build); looked in \(products)")
}

/// One measured launch: wall milliseconds, and the CPU milliseconds its process used.
struct Sample {
    var wall: Double
    var cpu: Double
}

/// The user + system time of this process's reaped children so far, in milliseconds.
func childrenCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

func measure(_ body: () -> Void) -> Sample {
    let cpu = childrenCPU()
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Sample(wall: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, cpu: childrenCPU() - cpu)
}

let scratch = try TemporaryDirectory("launch-bench")
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

for _ in 0..<5 { _ = bareSpawn(bareC); _ = bareSpawn(bare); _ = deviceLaunch() }
var cTimes: [Sample] = []
var bareTimes: [Sample] = []
var deviceTimes: [Sample] = []
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
for _ in 0..<iterations {
    cTimes.append(bareSpawn(bareC))
    bareTimes.append(bareSpawn(bare))
    deviceTimes.append(deviceLaunch())
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
}

let ratio = median(deviceTimes.map(\.wall)) / median(bareTimes.map(\.wall))
let floorRatio = median(deviceTimes.map(\.wall)) / median(cTimes.map(\.wall))
print("launch-bench: \(iterations) launches each, interleaved; products \(products); load \(load) (before)")
print("                                          median ms   mean ms   min ms   CPU ms (mean)")
print(row("bare posix_spawn+waitpid of bare-exit-c (C)", cTimes))
print(row("bare posix_spawn+waitpid of bare-exit", bareTimes))
print(row("TinyApp launched through SimDevice", deviceTimes))
print(String(format: "ratio to bare-exit (median): %.2fx  bar: within 2x  %@", ratio, ratio <= 2 ? "MET" : "NOT MET"))
print(String(format: "ratio to the C floor (median): %.2fx  bar: within 4x  %@", floorRatio, floorRatio <= 4 ? "MET" : "NOT MET"))
exit(ratio <= 2 ? 0 : 1)
