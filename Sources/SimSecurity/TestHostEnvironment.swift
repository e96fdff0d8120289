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
            do {
                configuration.identity = try AppIdentity.fromEntitlementsFile(path, bundleID: environment[bundleIDKey])
            } catch {
                throw Problem(variable: entitlementsKey, reason: "\(error)")
            }
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
