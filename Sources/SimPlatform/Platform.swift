import Foundation
import SimRuntime
import SimSecurity
import SimSupervision

/// What an app build calls instead of UIKit and Foundation singletons: its containers, preferences,
/// protected files, protected-data availability, keychain and clock, all on the simulated device
/// that launched it.
///
/// An app build starts with `let platform = try Platform.launched()`.
public final class Platform: Sendable {
    public let context: LaunchContext
    public let containers: AppContainers
    /// `UserDefaults.standard`.
    public let preferences: Preferences
    public let files: ProtectedFiles
    public let protectedData: ProtectedData
    /// The keychain the SecItem functions use in this process.
    public let keychain: Keychain
    private let seam: Seam

    /// The platform of this process, from the launch context in its environment. From here on every
    /// file-changing call of the process is the seam's to number (``FileSupervision``), and
    /// Foundation's `UserDefaults` reads and writes this platform's preferences (``FoundationDefaults``).
    /// - Throws: ``PlatformError/notLaunched`` when the process was not launched by a simulated device;
    ///   ``PlatformError/fileSupervisionRefused(_:)`` when the kernel refuses the file supervisor.
    public static func launched() throws(PlatformError) -> Platform {
        guard let context = LaunchContext.current else { throw .notLaunched }
        let seam = Seam.process
        do {
            try FileSupervision.start(context, seam: seam)
        } catch {
            throw .fileSupervisionRefused(error.reason)
        }
        // Opening the device's keychain (securityd's database, never the app's: the supervisor lets its
        // calls run unreported) as a store operation's own calls, so that SQLite's go past the filter
        // without a round trip to the supervisor thread (FileSupervision.untrapStoreDatabaseCalls).
        let keychain = ProcessSupervisor.unsupervised { Keychain.current }
        let platform = Platform(context: context, seam: seam, keychain: keychain)
        FoundationDefaults.route(to: platform)
        return platform
    }

    /// A platform for `context` inside the current process (for tests): its own seam and keychain.
    public init(context: LaunchContext, seam: Seam, keychain: Keychain? = nil) {
        self.context = context
        self.seam = seam
        let lockState = LockStateSource.file(context.lockStatePath)
        let home = URL(fileURLWithPath: context.dataContainer, isDirectory: true)
        let groups = context.appGroupContainers.mapValues { URL(fileURLWithPath: $0, isDirectory: true) }
        containers = AppContainers(home: home, groups: groups)
        protectedData = ProtectedData(lockState: lockState)
        preferences = Preferences(
            domain: context.bundleID,
            plistPath: containers.preferencesFile(domain: context.bundleID).path,
            argumentDomain: Preferences.argumentDomain(context.arguments), lockState: lockState, seam: seam)
        files = ProtectedFiles(
            containers: [home] + groups.keys.sorted().compactMap { groups[$0] },
            lockState: lockState, seam: seam)
        self.keychain =
            keychain
            ?? {
                var configuration = Keychain.Configuration.launched(context)
                configuration.seam = seam
                return Keychain(configuration)
            }()
    }

    /// The device clock (it does not run while the app does).
    public var now: Date { context.clock }

    /// The launch arguments (argv without the executable).
    public var arguments: [String] { context.arguments }

    /// Whether the app was launched with the argument `flag` (such as `-UITestSeedLegacyKeychain`).
    public func hasArgument(_ flag: String) -> Bool { context.arguments.contains(flag) }

    /// `UserDefaults(suiteName:)` for an app group the app is entitled to; nil otherwise.
    public func preferences(suiteName group: String) -> Preferences? {
        guard let file = containers.groupPreferencesFile(group) else { return nil }
        return preferences(domain: group, file: file)
    }

    /// The preferences domain `domain` stored in `file`, with this launch's argument domain, lock state and seam.
    public func preferences(domain: String, file: URL) -> Preferences {
        Preferences(
            domain: domain, plistPath: file.path, argumentDomain: preferences.argumentDomain,
            lockState: protectedData.lockState, seam: seam)
    }
}

/// Why the platform is not available.
public enum PlatformError: Error, Equatable, CustomStringConvertible {
    case notLaunched
    /// The kernel refused the file supervisor: the launch cannot run with its file crash points and faults.
    case fileSupervisionRefused(String)

    public var description: String {
        switch self {
        case .notLaunched:
            "not launched by a simulated device (no \(LaunchContext.environmentKey) in the environment); use upgrade-runner launch"
        case .fileSupervisionRefused(let reason):
            "the file supervisor could not start (\(reason)); the launch would have no file crash points"
        }
    }

    /// The exit code of a launch that ends with this error: 2 for a launch that cannot be run as
    /// asked, 3 for a machine that cannot run it.
    public var exitCode: Int32 {
        switch self {
        case .notLaunched: 2
        case .fileSupervisionRefused: 3
        }
    }
}
