// Writes generic passwords into a keychain file, one SecItemAdd each, and prints each account
// after its call returns. Tests kill it mid-run to check that every call is all-or-nothing.
// Usage: keychain-writer PATH COUNT [PREFIX]
import Foundation
import SimRuntime
import SimSecurity

let arguments = CommandLine.arguments
guard arguments.count >= 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: keychain-writer PATH COUNT [PREFIX]\n".utf8))
    exit(2)
}
let prefix = arguments.count > 3 ? arguments[3] : "item"
// Seam.process: a launch context in the environment can inject faults or a crash point.
// A simulated device's durability (no sync): what the kill test proves all-or-nothing is that one.
var configuration = Keychain.Configuration(storage: .file(arguments[1]), seam: .process)
configuration.durability = .processKill
let keychain = Keychain(configuration)
if let error = keychain.openError {
    FileHandle.standardError.write(Data("keychain-writer: \(error)\n".utf8))
    exit(2)
}
for index in 0..<count {
    let account = "\(prefix)-\(index)"
    let value = Data(repeating: UInt8(truncatingIfNeeded: index), count: 64 + index % 512)
    let query: [CFString: Any] = [
        kSecClass: kSecClassGenericPassword, kSecAttrService: "writer",
        kSecAttrAccount: account, kSecValueData: value,
    ]
    let status = Keychain.withCurrent(keychain) { SecItemAdd(query as CFDictionary, nil) }
    guard status == errSecSuccess else {
        FileHandle.standardError.write(Data("keychain-writer: \(account): \(SecurityStatus(status))\n".utf8))
        exit(1)
    }
    // One write(2) per line, unbuffered: a line on stdout means the call had returned.
    let line = Array("\(account)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
