import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime

/// Before a run writes anything, each of its builds is launched once on a scratch device (a verify
/// launch for a case of its own, on an empty device), to prove that it is an app build of this
/// contract: it must leave a status file, the file must decode with the contract version this
/// runner speaks, and it must name the build id its build.json gives. Each app extension the build
/// declares is launched once too, as extension-first launches it, and must leave a status file of
/// the contract without crashing. A build that is not (any executable that does not link AppHarness, a build of
/// an older or newer harness) is bad input, named before any cell runs.
enum BuildPreflight {
    /// The case id of the preflight launch (its own, so it touches no case's data).
    static let caseID = "preflight"

    /// Launches every build of `builds` once; throws for the first that is not an app build. A
    /// build whose executable (the same file, unchanged, and its extensions' too) already passed on this runtime in this
    /// process is not launched again: `mutants` runs dozens of gates over the same released builds.
    /// - Returns: the ids of the builds whose launch reported no startup read (they register no
    ///   ``AppHarness/AppBuild/startupRead(_:)``), sorted: the caller says so in one line.
    /// - Throws: ``GateError/malformed(path:reason:)`` naming the build, the status file and the field.
    @discardableResult
    /// - Parameters:
    ///   - format: why an executable is not one this machine runs (``ExecutableFormat``); the tests
    ///     of the launch cache put shell scripts in its place, which they pass here.
    ///   - confined: whether each launch writes only beneath its device (``WriteConfinement``);
    ///     those tests count launches in a file outside it.
    static func check(
        _ builds: [Build], runtime: RuntimeVersion, timeout: Double,
        format: (String) -> String? = ExecutableFormat.problem(at:), confined: Bool = true
    ) throws -> [String] {
        // Each build's key is taken once, before its launch: a build whose executable changes
        // during the check is not recorded as passed in its new state.
        let keyed = builds.sorted(by: { $0.manifest.id < $1.manifest.id }).map { ($0, Passed($0, runtime: runtime)) }
        let unchecked = keyed.filter { passed.readsAtStartup($0.1) == nil }
        guard !unchecked.isEmpty else { return withoutStartupRead(keyed) }
        // Nothing runs that is not an executable for this machine: a script would run with the
        // runner's rights, outside any device (the file supervisor starts inside an app build).
        for (build, _) in unchecked { try ExecutableFormat.check(build, format: format) }
        // On the temporary folder, not the devices' memory file system: the products' file system
        // as a rule, so that its few installs hard-link the executables instead of copying them.
        let root = NSTemporaryDirectory() + TemporaryDevices.prefix + "\(getpid())-preflight-\(UUID().uuidString)"
        try TemporaryDevices.create(root)
        defer { TemporaryDevices.remove(root) }
        let devices = DeviceSet(root: root)
        // Side by side, each on its own device; the error thrown is the first build's in id order.
        _ = try Slots.map(unchecked) { build, key throws(any Error) in
            let readsAtStartup = try check(build, devices: devices, runtime: runtime, timeout: timeout, confined: confined)
            passed.insert(key, readsAtStartup: readsAtStartup)
        }
        return withoutStartupRead(keyed)
    }

    private static func withoutStartupRead(_ keyed: [(Build, Passed)]) -> [String] {
        keyed.filter { passed.readsAtStartup($0.1) == false }.map(\.0.manifest.id)
    }

    /// A build that passed: its manifest's folder, its executable's path and state, the runtime.
    private struct Passed: Hashable {
        var folder: String, executable: String, runtime: String, state: FileIdentity?
        /// Each app extension's name, executable and its state: one that changed is launched again.
        var extensions: [String] = [], extensionStates: [FileIdentity?] = []

        init(_ build: Build, runtime: RuntimeVersion) {
            folder = build.folder
            executable = build.executablePath
            self.runtime = runtime.description
            state = FileIdentity(path: build.executablePath)
            for item in build.extensions {
                extensions.append(item.name + "\u{0}" + item.executablePath)
                extensionStates.append(FileIdentity(path: item.executablePath))
            }
        }
    }

    private static let passed = PassedBuilds()

    /// The builds that passed, each with whether its launch reported a startup read.
    private final class PassedBuilds: @unchecked Sendable {
        private let lock = NSLock()
        private var builds: [Passed: Bool] = [:]
        /// Nil when the build has not passed.
        func readsAtStartup(_ build: Passed) -> Bool? { lock.withLock { builds[build] } }
        func insert(_ build: Passed, readsAtStartup: Bool) { lock.withLock { builds[build] = readsAtStartup } }
    }

    /// Whether the build's status file has a startup read.
    private static func check(
        _ build: Build, devices: DeviceSet, runtime: RuntimeVersion, timeout: Double, confined: Bool
    ) throws -> Bool {
        let session = try devices.create(name: "preflight-\(build.manifest.id)", runtime: runtime).acquire()
        defer {
            try? session.delete()
            session.release()
        }
        try session.boot()
        _ = try session.install(build)
        let arguments = [LaunchMode.verify.argument!, LaunchMode.caseIDArgument, caseID]
        var options = LaunchOptions(arguments: arguments, timeout: timeout)
        // Not yet known to be an app build: it writes nowhere but its device, whatever it is.
        options.confinedToDevice = confined
        let result = try session.launch(build.manifest.bundleID, options)
        let what = "build \(build.manifest.id) (\(build.executablePath))"
        guard let data = result.statusFile else {
            throw GateError.malformed(
                path: build.folder + "/build.json",
                reason: "\(what) left no status file \(LaunchStatus.relativePath) (its launch \(result.termination)): "
                    + "it is not an app build (an app build links AppHarness and runs Harness.main)")
        }
        let status: LaunchStatus
        do {
            status = try LaunchStatus.decode(data)
        } catch {
            throw GateError.malformed(
                path: build.folder + "/build.json",
                reason: "\(what): its status file \(LaunchStatus.relativePath): \(JSONProblem.describe(error))")
        }
        // An executable reused under another build id would report the other id in every launch:
        // one line here instead of an honest-status FAIL in every cell.
        guard status.build == build.manifest.id || build.manifest.standIn == true else {
            throw GateError.malformed(
                path: build.folder + "/build.json",
                reason: "field \"id\" is \"\(build.manifest.id)\" but its executable \(build.executablePath) "
                    + "was built as \"\(status.build)\" (its status file says so): build each id's own executable, "
                    + "or mark a stand-in (\"standIn\": true)")
        }
        for item in build.extensions {
            try checkExtension(item, of: build, session: session, timeout: timeout, confined: confined)
        }
        try checkDeclaration(build, devices: devices, runtime: runtime, timeout: timeout, confined: confined)
        return status.startup != nil
    }

    /// Launches the build's app extension `item` once on the preflight device, as extension-first
    /// launches it (a plain launch, its own process, identity, entitlements and container; locked after
    /// the first unlock for the kinds iOS runs so): it must end without crashing and leave a status file
    /// of this contract. Otherwise every extension-first and interleavings cell would fail on it; one
    /// line here names the build and the extension instead.
    /// - Throws: ``GateError/malformed(path:reason:)`` naming the build's manifest, the build and the extension.
    private static func checkExtension(
        _ item: ExtensionBuild, of build: Build, session: DeviceSession, timeout: Double, confined: Bool
    ) throws {
        var options = LaunchOptions(arguments: [LaunchMode.caseIDArgument, caseID], timeout: timeout)
        options.confinedToDevice = confined
        options.extensionName = item.name
        let locked = ExtensionFirstSteps.runWhileLocked.contains(item.declaration.kind)
        if locked { try session.lock() }
        let result = try session.launch(build.manifest.bundleID, options)
        if locked { try session.unlock() }
        let what =
            "build \(build.manifest.id): extension \(item.name) (\(item.declaration.kind), \(item.executablePath)"
            + (locked ? ", launched locked)" : ")")
        func problem(_ text: String) -> GateError {
            .malformed(path: build.folder + "/" + BuildManifest.fileName, reason: "\(what) \(text)")
        }
        guard let data = result.statusFile else {
            throw problem(
                "left no status file \(LaunchStatus.relativePath) (its launch \(result.termination)): an extension's "
                    + "executable links AppHarness and runs Harness.main, as the app's does")
        }
        do {
            _ = try LaunchStatus.decode(data)
        } catch {
            throw problem("wrote a status file \(LaunchStatus.relativePath) that does not read: \(JSONProblem.describe(error))")
        }
        if case .exited = result.termination { return }
        throw problem("wrote its status file, then its launch \(result.termination)")
    }

    /// A build's declared secrets against what its seed stores: the seed runs on a fresh device for
    /// the preflight case, and each declared secret must be where its store says (``DeclarationDraft``):
    /// `keeps.secrets[0].store.accessible of "token" is "cku" but the build stored it with
    /// accessible "aku"`, or a declared preference key the seed never wrote, is bad input naming the
    /// build and the field. A field a declaration leaves out is not compared. A known-bad build
    /// (`antiPattern`) is not checked: its declaration is the release it imitates, and its mistake
    /// may be just such a disagreement, for the gate to catch; nor is a stand-in (`standIn`), whose
    /// seed is the other build's whose executable it runs. A seed that does not exit cleanly is
    /// left to the gate's cells.
    static func checkDeclaration(
        _ build: Build, devices: DeviceSet, runtime: RuntimeVersion, timeout: Double, confined: Bool
    ) throws {
        guard build.manifest.antiPattern == nil, build.manifest.standIn != true, let keeps = build.manifest.keeps,
            !keeps.secrets.isEmpty
        else { return }
        let observation = try BuildObservation.observe(
            build, runtime: runtime, timeout: timeout, caseID: caseID, plainLaunch: false, confined: confined,
            devices: devices)
        guard observation.launches.allSatisfy({ $0.termination == .exited(0) }),
            let first = DeclarationDraft.differences(observation: observation).first
        else { return }
        throw GateError.malformed(
            path: build.folder + "/build.json",
            reason: "build \(build.manifest.id): \(first) (at its seed; `upgrade-runner declare \(build.manifest.id)` "
                + "drafts what it stores)")
    }
}
