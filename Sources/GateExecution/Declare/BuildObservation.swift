import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import UpgradeContract

/// What a build's launches left on a fresh device, read back store by store: the keychain items in
/// the build's access groups, the preference keys of its domain and of its app groups' suites, and
/// every other file of its data container and group containers, each with the launches that
/// changed it (from the mutation log the seam keeps of every store operation).
///
/// `declare` runs, on a fresh temporary device, the build's seed (`-UITestSeedLegacyKeychain`) and
/// then its plain launch, and on a second fresh device one plain launch alone (a fresh install:
/// what the app writes for itself, its bookkeeping); preflight runs the seed alone. Nothing of
/// what is read is printed: the case's secret values are only compared.
package struct BuildObservation {
    /// One launch: its name (`seed`, `launch`, `fresh-launch`), how it ended, its store operations.
    package struct LaunchTrace {
        package var name: String
        package var termination: Termination
        package var mutations: [SeamEntry]
        package var status: LaunchStatus?
    }

    /// The stores the device held after the launches.
    package struct Stores {
        package var keychain: [KeychainItemRecord] = []
        /// Suite (nil: the app's own domain) to its keys' values.
        package var preferences: [String: [String: Any]] = [:]
        package var appPreferences: [String: Any] = [:]
        /// Every other file: its group (nil: the data container), its path, its bytes.
        package var files: [(group: String?, path: String, data: Data)] = []
    }

    package let build: Build
    package let caseID: String
    package var launches: [LaunchTrace] = []
    /// After the seed and plain launch (or the seed alone).
    package var stores = Stores()
    /// After a plain launch on a fresh install (empty when it was not run).
    package var freshInstall = Stores()
    /// After the seed alone, before the plain launch.
    package var afterSeed = Stores()

    /// The case's secret values (the seed wrote them; nothing else sees them).
    package var secrets: CaseSecrets { CaseSecrets(caseID: caseID) }

    /// The case id `declare` seeds with: one no app's own names contain, so that every place it
    /// appears in an observed name is a per-case name (`$(CASE_ID)`).
    package static let caseID = "dcl7q9case"

    /// Runs the launches on temporary devices and reads what they left.
    /// - Parameters:
    ///   - plainLaunch: also launch the build plainly after the seed, and on a fresh install.
    ///   - given: the device set to create the devices in (else a temporary one of its own).
    package static func observe(
        _ build: Build, runtime: RuntimeVersion, timeout: Double, caseID: String = BuildObservation.caseID,
        plainLaunch: Bool = true, confined: Bool = true, devices given: DeviceSet? = nil
    ) throws -> BuildObservation {
        var observation = BuildObservation(build: build, caseID: caseID)
        let devices: DeviceSet
        if let given {
            devices = given
        } else {
            let root = NSTemporaryDirectory() + TemporaryDevices.prefix + "\(getpid())-declare-\(UUID().uuidString)"
            try TemporaryDevices.create(root)
            devices = DeviceSet(root: root)
        }
        defer { if given == nil { TemporaryDevices.remove(devices.root) } }
        func run(_ session: DeviceSession, _ name: String, _ mode: LaunchMode) throws {
            var arguments = [LaunchMode.caseIDArgument, caseID]
            if let flag = mode.argument { arguments.insert(flag, at: 0) }
            var options = LaunchOptions(arguments: arguments, timeout: timeout)
            options.confinedToDevice = confined
            let result = try session.launch(build.manifest.bundleID, options)
            observation.launches.append(
                LaunchTrace(
                    name: name, termination: result.termination, mutations: result.mutations,
                    status: result.statusFile.flatMap { try? LaunchStatus.decode($0) }))
        }
        func device(_ name: String) throws -> DeviceSession {
            let session = try devices.create(name: name, runtime: runtime, clock: ScenarioDevice.epoch).acquire()
            try session.boot(lockState: .unlocked)
            _ = try session.install(build)
            return session
        }
        let seeded = try device("declare-\(build.manifest.id)")
        defer {
            try? seeded.delete()
            seeded.release()
        }
        try run(seeded, "seed", .seed)
        observation.afterSeed = try read(seeded, build)
        guard plainLaunch else {
            observation.stores = observation.afterSeed
            return observation
        }
        try run(seeded, "launch", .launch)
        observation.stores = try read(seeded, build)
        let fresh = try device("declare-fresh-\(build.manifest.id)")
        defer {
            try? fresh.delete()
            fresh.release()
        }
        try run(fresh, "fresh-launch", .launch)
        observation.freshInstall = try read(fresh, build)
        return observation
    }

    /// The stores of `build` on the device `session` holds now.
    static func read(_ session: DeviceSession, _ build: Build) throws -> Stores {
        var stores = Stores()
        let groups = Set(build.identity.accessGroups)
        stores.keychain = try session.keychainItems().filter { groups.contains($0.accessGroup) }
        let bundleID = build.manifest.bundleID
        let preferencesFile = "Library/Preferences/\(bundleID).plist"
        if let container = session.dataContainer(bundleID) {
            for file in session.files(in: container, pruning: ["tmp"]) where !Self.isContainerMetadata(file.relative) {
                guard let data = file.contents else { continue }
                if file.relative == preferencesFile {
                    stores.appPreferences = StoreFormat.propertyList(data) as? [String: Any] ?? [:]
                } else {
                    stores.files.append((nil, file.relative, data))
                }
            }
        }
        for group in build.identity.applicationGroups.sorted() {
            guard let container = session.groupContainer(group) else { continue }
            let suiteFile = "Library/Preferences/\(group).plist"
            for file in session.files(in: container) where !Self.isContainerMetadata(file.relative) {
                guard let data = file.contents else { continue }
                if file.relative == suiteFile {
                    stores.preferences[group] = StoreFormat.propertyList(data) as? [String: Any] ?? [:]
                } else {
                    stores.files.append((group, file.relative, data))
                }
            }
        }
        stores.files.sort { ($0.group ?? "", $0.path) < ($1.group ?? "", $1.path) }
        return stores
    }

    /// The container manager's own metadata file at a container's top.
    static func isContainerMetadata(_ relative: String) -> Bool {
        !relative.contains("/") && relative.hasPrefix(".com.apple.mobile_container_manager")
    }
}
