import Foundation
import SimRuntime

/// The environment variables that set up the keychain of a process that no simulated device
/// launched, such as an XCTest or Swift Testing run of a keychain library's own suite, with no
/// set-up code. Each is read once, when the `SecItem*` functions are first used; each is optional.
///
/// | Variable | Value | When unset |
/// |---|---|---|
/// | `SIMSECURITY_ENTITLEMENTS` | an entitlements property list (XML or binary) | ``AppIdentity/testHost`` |
/// | `SIMSECURITY_BUNDLE_ID` | the bundle id, when the entitlements have no `application-identifier` | from the entitlements |
/// | `SIMSECURITY_KEYCHAIN` | the keychain database file (created when missing; its folder must exist) | in memory |
/// | `SIMSECURITY_LOCK_STATE` | `unlocked`, `locked` or `beforeFirstUnlock` | `unlocked` |
/// | `SIMSECURITY_RUNTIME` | an iOS version: `iOS 12.4`, `17.5` | ``RuntimeVersion/current`` |
///
/// A launched app's context (`UPGRADE_RUNNER_LAUNCH_CONTEXT`) takes precedence over all of them.
public enum TestHostEnvironment {
    public static let entitlementsKey = "SIMSECURITY_ENTITLEMENTS"
    public static let bundleIDKey = "SIMSECURITY_BUNDLE_ID"
    public static let keychainKey = "SIMSECURITY_KEYCHAIN"
    public static let lockStateKey = "SIMSECURITY_LOCK_STATE"
    public static let runtimeKey = "SIMSECURITY_RUNTIME"

    /// A variable whose value cannot be used, named with the reason.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var variable: String
        public var reason: String
        public var description: String { "\(variable): \(reason)" }
    }

    /// The configuration the variables describe; the defaults where they are unset.
    public static func configuration(_ environment: [String: String]) throws(Problem) -> Keychain.Configuration {
        var configuration = Keychain.Configuration()
        if let path = environment[entitlementsKey] {
            configuration.identity = try identity(entitlementsFile: path, bundleID: environment[bundleIDKey])
        }
        if let path = environment[keychainKey] {
            configuration.storage = .file(path)
        }
        if let raw = environment[lockStateKey] {
            guard let state = LockState(rawValue: raw) else {
                throw Problem(variable: lockStateKey, reason: "\"\(raw)\" is not unlocked, locked or beforeFirstUnlock")
            }
            configuration.lockState = .fixed(state)
        }
        if let raw = environment[runtimeKey] {
            guard let runtime = RuntimeVersion(raw) else {
                throw Problem(variable: runtimeKey, reason: "\"\(raw)\" is not an iOS version such as \"iOS 17.5\"")
            }
            configuration.runtime = runtime
        }
        return configuration
    }

    /// The test host's identity from its entitlements property list: `application-identifier`,
    /// `keychain-access-groups` and `com.apple.security.application-groups`, as a signed build
    /// carries them (variables such as `$(AppIdentifierPrefix)` already expanded). `bundleID`
    /// defaults to the application identifier without its team prefix. Read here rather than by the
    /// Entitlements module (Mach-O, DER, profiles), which an app build has no use for.
    static func identity(entitlementsFile path: String, bundleID: String?) throws(Problem) -> AppIdentity {
        func problem(_ reason: String) -> Problem { Problem(variable: entitlementsKey, reason: "\(path): \(reason)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw problem("cannot be read") }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw problem("is not a property list")
        }
        guard let entitlements = plist as? [String: Any] else { throw problem("is not a dictionary of entitlements") }
        func strings(_ key: String) throws(Problem) -> [String] {
            guard let value = entitlements[key] else { return [] }
            guard let list = value as? [String] else { throw problem("\"\(key)\" is not an array of strings") }
            return list
        }
        let appID: String?
        switch entitlements["application-identifier"] {
        case nil: appID = nil
        case let text as String: appID = text
        default: throw problem("\"application-identifier\" is not a string")
        }
        let bundle =
            bundleID ?? appID.map { id in id.firstIndex(of: ".").map { String(id[id.index(after: $0)...]) } ?? id } ?? ""
        return AppIdentity(
            bundleID: bundle, applicationIdentifier: appID, keychainAccessGroups: try strings("keychain-access-groups"),
            applicationGroups: try strings("com.apple.security.application-groups"))
    }

    /// This process's configuration. A variable that is set but unusable ends the process with a
    /// one-line error: a suite run against the wrong identity or store would prove nothing.
    static func processConfiguration() -> Keychain.Configuration {
        do {
            return try configuration(ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("SimSecurity: \(error)\n".utf8))
            exit(2)
        }
    }
}
