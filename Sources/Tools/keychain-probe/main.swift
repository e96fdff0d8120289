// Calls the SecItem functions with no set-up code, so that the SIMSECURITY_* environment variables
// alone choose the identity, store, lock state and runtime (TestHostEnvironment); prints one line
// per call: what it did and its OSStatus. Tests run it with different environments.
// Usage: keychain-probe
import Foundation
import SimSecurity

func item(_ account: String, _ extra: [CFString: Any] = [:]) -> [CFString: Any] {
    [kSecClass: kSecClassGenericPassword, kSecAttrService: "probe", kSecAttrAccount: account].merging(extra) { _, new in new }
}

let always = SecItemAdd(item("always", [kSecAttrAccessible: kSecAttrAccessibleAlways]) as CFDictionary, nil)
print("add-always \(always)")
print("add-when-unlocked \(SecItemAdd(item("unlocked") as CFDictionary, nil))")
var result: CFTypeRef?
let read = SecItemCopyMatching(item("always", [kSecReturnAttributes: true]) as CFDictionary, &result)
print("read \(read) agrp=\((result as? [String: Any])?[kSecAttrAccessGroup as String] as? String ?? "-")")
let foreign = SecItemCopyMatching(item("always", [kSecAttrAccessGroup: "FOREIGN000.x"]) as CFDictionary, nil)
print("read-foreign-group \(foreign)")
// What a test host's Bundle.main says (TestHostBundle): `bundle-id -` when it names nothing.
print("bundle-id \(Bundle.main.bundleIdentifier ?? "-")")
