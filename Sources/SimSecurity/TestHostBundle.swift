// The constructor that calls `simsecurity_prepare_test_host_bundle` lives in CTestHost (C: Swift has no
// code that runs before `main`).
internal import CTestHost
import Foundation

/// `Bundle.main` of a test process, named as an iOS test host names it: on iOS a test runs inside
/// its host app, so `Bundle.main.bundleIdentifier` answers the host's identifier, and keychain
/// libraries derive their default service from it. corelibs Foundation reads `Bundle.main` once, at
/// its first use, from an `Info.plist` beside the running executable.
///
/// When a test process (an executable named `*.xctest`, as `swift test` runs them) starts with
/// `SIMSECURITY_BUNDLE_ID` or `SIMSECURITY_ENTITLEMENTS` set (``TestHostEnvironment``) and no
/// simulated device launched it, a constructor (the `CTestHost` target) calls ``prepare(environment:executable:)``
/// before any test code runs, which writes that `Info.plist` with the host's bundle identifier:
/// `SIMSECURITY_BUNDLE_ID`, else the entitlements' `application-identifier` without its team prefix.
///
/// It writes only its own file: one marked with the `SimSecurityTestHost` key, replaced when the
/// identifier changes and removed by a test process started without the variables (a later run
/// with none is not a test host). An `Info.plist` a person put there is left as it is. Nothing is
/// written for any other process, or when the variables cannot be used (the first SecItem call then
/// says why).
public enum TestHostBundle {
    /// The key that marks an `Info.plist` as written here.
    public static let markerKey = "SimSecurityTestHost"

    /// What ``prepare(environment:executable:)`` did.
    public enum Outcome: Equatable, Sendable {
        /// The `Info.plist` at this path names the identifier (written now, or already).
        case named(String, path: String)
        /// A person's own `Info.plist` is there: left alone.
        case leftAlone(path: String)
        /// The variables are unset: the `Info.plist` written for an earlier run was removed.
        case removed(path: String)
        /// Nothing to do: no variable, not a test process, or a value that cannot be used.
        case notApplicable
        /// The file could not be written (a read-only build folder): Bundle.main stays unnamed.
        case failed(path: String)
    }

    /// Writes the `Info.plist` beside `executable` that names the test host the environment
    /// describes, when `executable` is a test process's.
    @discardableResult
    public static func prepare(environment: [String: String], executable: String) -> Outcome {
        guard environment["UPGRADE_RUNNER_LAUNCH_CONTEXT"] == nil, executable.hasSuffix(".xctest") else {
            return .notApplicable
        }
        let path = (executable as NSString).deletingLastPathComponent + "/Info.plist"
        var existing: [String: Any]?
        if let data = FileManager.default.contents(atPath: path) {
            let read = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            guard let read, read[markerKey] as? Bool == true else { return .leftAlone(path: path) }
            existing = read
        }
        let bundleID: String
        if let given = environment[TestHostEnvironment.bundleIDKey], !given.isEmpty {
            bundleID = given
        } else if let entitlements = environment[TestHostEnvironment.entitlementsKey] {
            guard let identity = try? TestHostEnvironment.identity(entitlementsFile: entitlements, bundleID: nil),
                !identity.bundleID.isEmpty
            else { return .notApplicable }
            bundleID = identity.bundleID
        } else {
            guard existing != nil else { return .notApplicable }
            return unlink(path) == 0 ? .removed(path: path) : .failed(path: path)
        }
        if existing?["CFBundleIdentifier"] as? String == bundleID { return .named(bundleID, path: path) }
        let plist: [String: Any] = [
            "CFBundleIdentifier": bundleID, "CFBundlePackageType": "APPL", markerKey: true,
        ]
        guard let data = try? PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0),
            (try? data.write(to: URL(fileURLWithPath: path), options: .atomic)) != nil
        else { return .failed(path: path) }
        return .named(bundleID, path: path)
    }
}

/// Called by the `CTestHost` constructor, before `main`, in a test process given the variables.
@_cdecl("simsecurity_prepare_test_host_bundle")
public func _simsecurityPrepareTestHostBundle() {
    guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return }
    TestHostBundle.prepare(environment: ProcessInfo.processInfo.environment, executable: executable)
}
