internal import CLaunch
import Foundation

/// Everything a launched app's process learns from the device that launched it.
///
/// The launcher (SimDevice) writes it as JSON into the environment variable
/// ``environmentKey``; the platform layer reads it once at start-up. The app's identity comes from
/// the device's install record, never from the app's own claim.
public struct LaunchContext: Hashable, Sendable, Codable {
    public var udid: String
    public var deviceDirectory: String
    public var bundleID: String
    public var identity: AppIdentity
    public var runtime: RuntimeVersion
    /// The device's keychain database.
    public var keychainPath: String
    /// The app's data container (Documents, Library, tmp).
    public var dataContainer: String
    /// App group id to container path, for the groups the app is entitled to.
    public var appGroupContainers: [String: String]
    /// The file holding the device's lock state, read on every check.
    public var lockStatePath: String
    /// The device clock at launch (the simulated clock does not run on its own), in the context as
    /// seconds since 1970: parsing an ISO 8601 date was half of a small app's start-up.
    public var clock: Date
    /// The arguments the app was launched with (also its argv).
    public var arguments: [String]
    public var faultPlan: FaultPlan
    /// Where the seam appends the launch's mutation log.
    public var mutationLogPath: String?
    /// Whether the device has a passcode (WhenPasscodeSetThisDeviceOnly items need one).
    public var passcodeSet: Bool
    /// Whether the launch runs in the background (no authentication prompt can be shown); nil: a
    /// foreground launch, as every launch was before it was kept.
    public var background: Bool?
    /// The device's biometry enrollment generation (nil: 1, a device's first enrollment).
    public var biometryGeneration: Int?
    /// The process that launched the app. The app dies with it (see ``current``): an app left
    /// running by a killed launcher would go on writing a device that nothing holds any more.
    public var launcherPID: Int32?
    /// Set when the process is one of the app's extensions (issue 39), not the app: which one, its
    /// kind and the app that hosts it. ``bundleID``, ``identity`` and ``dataContainer`` are then the
    /// extension's own. Nil for an app's launch (and absent from its JSON).
    public var appExtension: AppExtension?
    /// Set when the runner holds the process at each store operation (issue 39, interleavings):
    /// the two FIFOs of ``StepChannel``. Nil for every other launch (and absent from its JSON).
    public var steps: StepChannel?

    /// An app extension's launch: the extension's name (build.json's), its kind and the host app.
    public struct AppExtension: Hashable, Sendable, Codable {
        public var name: String
        /// `notification-service`, `widget`, `share` or `background-task`.
        public var kind: String
        /// The bundle id of the app that ships the extension.
        public var hostBundleID: String

        public init(name: String, kind: String, hostBundleID: String) {
            self.name = name
            self.kind = kind
            self.hostBundleID = hostBundleID
        }
    }

    public init(
        udid: String, deviceDirectory: String, bundleID: String, identity: AppIdentity,
        runtime: RuntimeVersion, keychainPath: String, dataContainer: String,
        appGroupContainers: [String: String], lockStatePath: String, clock: Date,
        arguments: [String], faultPlan: FaultPlan, mutationLogPath: String?, passcodeSet: Bool = true,
        launcherPID: Int32? = nil
    ) {
        self.udid = udid
        self.deviceDirectory = deviceDirectory
        self.bundleID = bundleID
        self.identity = identity
        self.runtime = runtime
        self.keychainPath = keychainPath
        self.dataContainer = dataContainer
        self.appGroupContainers = appGroupContainers
        self.lockStatePath = lockStatePath
        self.clock = clock
        self.arguments = arguments
        self.faultPlan = faultPlan
        self.mutationLogPath = mutationLogPath
        self.passcodeSet = passcodeSet
        self.launcherPID = launcherPID
    }

    /// The environment variable that carries the context.
    public static let environmentKey = "UPGRADE_RUNNER_LAUNCH_CONTEXT"

    /// The context of this process, or nil when it was not launched by a simulated device.
    /// A context that is present but unreadable ends the process with a one-line error: running
    /// an app against the wrong store would be worse. Reading it also ties the process's life to
    /// its launcher's: the kernel kills the app with SIGKILL when the launcher ends, and an app
    /// whose launcher is already gone exits at once.
    public static let current: LaunchContext? = {
        // getenv, not ProcessInfo's environment: that builds a dictionary of every variable first.
        guard let value = getenv(environmentKey) else { return nil }
        let text = String(cString: value)
        let context: LaunchContext
        do {
            context = try decode(text)
        } catch {
            FileHandle.standardError.write(Data("launch context (\(environmentKey)): \(error)\n".utf8))
            exit(2)
        }
        if let launcher = context.launcherPID, claunch_die_with_parent(SIGKILL, launcher) != 0 {
            FileHandle.standardError.write(Data("launch context: the launcher (pid \(launcher)) has ended; exiting\n".utf8))
            exit(2)
        }
        return context
    }()

    /// The JSON text to put into the environment.
    public func encoded() throws -> String {
        String(decoding: try LaunchContext.encoder.encode(self), as: UTF8.self)
    }

    /// Reads a context from its JSON text: the runner's own JSON directly (``LaunchContextReader``),
    /// anything else through `JSONDecoder`, which also names what is wrong with a bad one.
    public static func decode(_ text: String) throws -> LaunchContext {
        if let context = LaunchContextReader.read(text) { return context }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(LaunchContext.self, from: Data(text.utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()
}
