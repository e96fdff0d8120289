// launch-bench: the cost of one app launch through SimDevice against the operating system's floor.
//
// Side by side, interleaved in one run: launching TinyApp on a simulated device (read the device
// record and install record, find the containers, spawn with a launch context, and in the app open
// the keychain, read one item, write a status file, exit), and a bare posix_spawn + waitpid of
// `bare-exit`, a Foundation binary that only exits. The bar is a ratio within 2x.
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
guard FileManager.default.isExecutableFile(atPath: bare), FileManager.default.isExecutableFile(atPath: products + "/TinyApp")
else {
    fail("build TinyApp and bare-exit first (swift build); looked in \(products)")
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

func bareSpawn() -> Double {
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(bare), nil]
    let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
    defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
    let start = DispatchTime.now().uptimeNanoseconds
    var pid: pid_t = 0
    guard posix_spawn(&pid, bare, nil, nil, argv, envp) == 0 else { fail("cannot spawn \(bare)") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else { fail("bare-exit ended with status \(status)") }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func deviceLaunch() -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    do {
        let result = try session.launch("com.example.tiny")
        guard result.exitedCleanly else { fail("TinyApp \(result.termination); log: \(result.logPath)") }
    } catch {
        fail("\(error)")
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

for _ in 0..<5 { _ = bareSpawn(); _ = deviceLaunch() }
var bareTimes: [Double] = []
var deviceTimes: [Double] = []
for _ in 0..<iterations {
    bareTimes.append(bareSpawn())
    deviceTimes.append(deviceLaunch())
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
func format(_ value: Double) -> String { String(format: "%7.2f", value) }

let ratio = median(deviceTimes) / median(bareTimes)
print("launch-bench: \(iterations) launches each, interleaved; products \(products)")
print("                                          median ms   mean ms   min ms")
print(
    "bare posix_spawn+waitpid of bare-exit       \(format(median(bareTimes)))   \(format(mean(bareTimes)))  \(format(bareTimes.min()!))"
)
print(
    "TinyApp launched through SimDevice          \(format(median(deviceTimes)))   \(format(mean(deviceTimes)))  \(format(deviceTimes.min()!))"
)
print(String(format: "ratio (median): %.2fx  bar: within 2x  %@", ratio, ratio <= 2 ? "MET" : "NOT MET"))
exit(ratio <= 2 ? 0 : 1)
