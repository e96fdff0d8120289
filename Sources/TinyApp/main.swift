// TinyApp: the smallest app build. It opens the device keychain, reads (or seeds) one item, and
// writes a small status file into its data container. Launch arguments pick other behaviours that
// the tests need (`-TinyMode hang|signal|prefs|wait|env|escape`); they reach it through the argument domain.
import Foundation
import SimPlatform
import SimRuntime
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

let platform: Platform
do {
    platform = try Platform.launched()
} catch {
    FileHandle.standardError.write(Data("TinyApp: \(error)\n".utf8))
    exit(error.exitCode)
}
let defaults = platform.preferences
let mode = defaults.string(forKey: "TinyMode") ?? "read"
// The status file's fields, as JSON literals; written with sorted keys, without JSONSerialization,
// whose first use costs more than the rest of this app.
var status: [String: String] = [
    "bundleID": quoted(platform.context.bundleID), "mode": quoted(mode), "runtime": quoted("\(platform.context.runtime)"),
]

/// `-TinyReadyFIFO PATH`: announces "running, pid N" on a FIFO and keeps it open, so that a test
/// waits on events (the line, then the hang-up when this process ends) rather than on the clock.
func announceReady() {
    guard let fifo = defaults.string(forKey: "TinyReadyFIFO") else { return }
    let fd = open(fifo, O_WRONLY)
    if fd >= 0 { _ = "\(getpid())\n".withCString { write(fd, $0, strlen($0)) } }
}

func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

func query(_ extra: [CFString: Any]) -> CFDictionary {
    var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: "tiny", kSecAttrAccount: "token"]
    query.merge(extra) { $1 }
    return query as CFDictionary
}

switch mode {
case "seed":
    let value = defaults.string(forKey: "TinyValue") ?? "tiny-secret"
    status["SecItemAdd"] = "\(SecItemAdd(query([kSecValueData: Data(value.utf8)]), nil))"
case "hang":
    print("TinyApp: hanging")
    fflush(nil)
    announceReady()
    let seconds = defaults.integer(forKey: "TinyHangSeconds")
    var slept = 0
    while seconds == 0 || slept < seconds { sleep(1); slept += 1 }
case "signal":
    print("TinyApp: raising signal")
    fflush(nil)
    // The default action, as when the system kills an app; the Swift runtime's crash handler is bypassed.
    let number = Int32(defaults.integer(forKey: "TinySignal"))
    signal(number, SIG_DFL)
    kill(getpid(), number)
    while true { pause() }
case "prefs":
    let count = defaults.integer(forKey: "TinyCounter") + 1
    status["stored"] = "\(defaults.set(count, forKey: "TinyCounter"))"
    status["counter"] = "\(defaults.integer(forKey: "TinyCounter"))"
case "wait":
    announceReady()
    status["available"] =
        "\(platform.protectedData.waitUntilAvailable(timeout: Double(defaults.integer(forKey: "TinyWaitSeconds"))))"
case "env":
    let environment = ProcessInfo.processInfo.environment
    print("HOME=\(environment["HOME"] ?? "")")
    print("TMPDIR=\(environment["TMPDIR"] ?? "")")
    print("arguments=\(platform.arguments.joined(separator: " "))")
    FileHandle.standardError.write(Data("stderr line\n".utf8))
case "escape":
    // A double fork that leaves a session of its own running (`-TinyMode escape`): the shell starts
    // `sleep` in the background under setsid, waits until it has written its pid, and exits; the
    // daemon and this app both try to write `-TinyOutside PATH`, outside the device.
    let outside = defaults.string(forKey: "TinyOutside") ?? "/nonexistent/outside"
    let pidFile = platform.containers.tmp.appendingPathComponent("escaped.pid").path
    let script =
        #"setsid sh -c 'echo escaped > "$1"; echo $$ > "$0.part"; mv "$0.part" "$0"; exec sleep 100000' "$0" "$1" </dev/null >/dev/null 2>&1 & while [ ! -s "$0" ]; do :; done"#
    var child: pid_t = 0
    let words: [String] = ["/bin/sh", "-c", script, pidFile, outside]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    if posix_spawn(&child, "/bin/sh", nil, nil, argv, environ) == 0 {
        var ended: Int32 = 0
        waitpid(child, &ended, 0)
    }
    let escaped =
        (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "none"
    print("escaped pid \(escaped)")
    let written = FileManager.default.createFile(atPath: outside + ".app", contents: Data("app\n".utf8))
    print("app wrote outside: \(written)")
    fflush(nil)
default:
    var result: CFTypeRef?
    let read = SecItemCopyMatching(query([kSecReturnData: kCFBooleanTrue!]), &result)
    status["SecItemCopyMatching"] = "\(read)"
    status["found"] = "\((result as? Data) != nil)"
}

let url = platform.containers.documents.appendingPathComponent("tiny-status.json")
do {
    let fields = status.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + $0.value }
    try platform.files.write(Data(("{" + fields.joined(separator: ",") + "}\n").utf8), to: url)
} catch {
    FileHandle.standardError.write(Data("TinyApp: status file: \(error)\n".utf8))
    exit(3)
}
// An automation launch (one with a test case) also leaves the contract's status file, with no
// items: TinyApp keeps nothing, but it speaks the contract, so the gate accepts it as an app build.
if let index = platform.arguments.firstIndex(of: LaunchMode.caseIDArgument), index + 1 < platform.arguments.count {
    let mode = LaunchMode.selected(by: platform.arguments)
    let contract =
        "{\"build\":\"tiny\",\"caseID\":\(quoted(platform.arguments[index + 1])),\"errors\":[],"
        + "\"formatVersion\":\(LaunchStatus.currentFormat),\"items\":[],\"mode\":\"\(mode.rawValue)\","
        + "\"runtime\":\(quoted("\(platform.context.runtime)"))}\n"
    let path = platform.containers.home.appendingPathComponent(LaunchStatus.relativePath).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(contract.utf8))
}
exit(Int32(defaults.integer(forKey: "TinyExit")))
