// TinyApp: the smallest app build. It opens the device keychain, reads (or seeds) one item, and
// writes a small status file into its data container. Launch arguments pick other behaviours that
// the tests need (`-TinyMode hang|signal|prefs|wait|env`); they reach it through the argument domain.
import Foundation
import SimDevice
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
    exit(2)
}
let defaults = platform.preferences
let mode = defaults.string(forKey: "TinyMode") ?? "read"
var status: [String: Any] = ["bundleID": platform.context.bundleID, "mode": mode, "runtime": "\(platform.context.runtime)"]

func query(_ extra: [CFString: Any]) -> CFDictionary {
    var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: "tiny", kSecAttrAccount: "token"]
    query.merge(extra) { $1 }
    return query as CFDictionary
}

switch mode {
case "seed":
    let value = defaults.string(forKey: "TinyValue") ?? "tiny-secret"
    status["SecItemAdd"] = SecItemAdd(query([kSecValueData: Data(value.utf8)]), nil)
case "hang":
    print("TinyApp: hanging")
    fflush(nil)
    while true { sleep(60) }
case "signal":
    print("TinyApp: raising signal")
    fflush(nil)
    kill(getpid(), Int32(defaults.integer(forKey: "TinySignal")))
case "prefs":
    let count = defaults.integer(forKey: "TinyCounter") + 1
    status["stored"] = defaults.set(count, forKey: "TinyCounter")
    status["counter"] = defaults.integer(forKey: "TinyCounter")
case "wait":
    status["available"] = platform.protectedData.waitUntilAvailable(timeout: Double(defaults.integer(forKey: "TinyWaitSeconds")))
case "env":
    let environment = ProcessInfo.processInfo.environment
    print("HOME=\(environment["HOME"] ?? "")")
    print("TMPDIR=\(environment["TMPDIR"] ?? "")")
    print("arguments=\(platform.arguments.joined(separator: " "))")
    FileHandle.standardError.write(Data("stderr line\n".utf8))
default:
    var result: CFTypeRef?
    let read = SecItemCopyMatching(query([kSecReturnData: kCFBooleanTrue!]), &result)
    status["SecItemCopyMatching"] = read
    status["found"] = (result as? Data) != nil
}

let url = platform.containers.documents.appendingPathComponent("tiny-status.json")
do {
    let data = try JSONSerialization.data(withJSONObject: status, options: [.sortedKeys])
    try platform.files.write(data, to: url)
} catch {
    FileHandle.standardError.write(Data("TinyApp: status file: \(error)\n".utf8))
    exit(3)
}
exit(Int32(defaults.integer(forKey: "TinyExit")))
