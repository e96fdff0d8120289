import FileUtility
import Foundation
import UpgradeContract

/// Everything a run depends on, as `run.json` holds it: enough to replay it, and to refuse merging
/// shards made from different inputs.
public struct RunInputs: Codable, Equatable, Sendable {
    /// The digests of one build's files.
    public struct BuildFiles: Codable, Equatable, Sendable {
        /// Lower-case hex SHA-256 of the build's executable.
        public package(set) var executable: String
        /// Lower-case hex SHA-256 of the build's entitlements file.
        public package(set) var entitlements: String
        /// Lower-case hex SHA-256 of the build's manifest (`build.json`), which declares what is seeded
        /// and judged (its secrets, bookkeeping and policies are inline; the entitlements file is the
        /// one file it names, pinned above). Nil in a run.json of a runner before manifests were pinned.
        public package(set) var manifest: String?
        /// Extension name to the digests of its files, for each app extension the build declares
        /// (build.json's `extensions`); nil (left out of run.json) for a build without.
        public package(set) var extensions: [String: ExtensionFiles]?

        /// Digests given as hex.
        public init(executable: String, entitlements: String, manifest: String? = nil) {
            self.executable = executable
            self.entitlements = entitlements
            self.manifest = manifest
        }

        /// Reads the files and digests them.
        /// - Throws: ``GateError/unreadable(path:reason:)`` naming the file that cannot be read.
        public init(
            executableAt executablePath: String, entitlementsAt entitlementsPath: String, manifestAt manifestPath: String? = nil
        )
            throws(GateError)
        {
            self.executable = try GateHash.hexOfFile(atPath: executablePath)
            self.entitlements = try GateHash.hexOfFile(atPath: entitlementsPath)
            self.manifest = try manifestPath.map { path throws(GateError) in try GateHash.hexOfFile(atPath: path) }
        }
    }

    /// The digests of one app extension's files.
    public struct ExtensionFiles: Codable, Equatable, Sendable {
        /// Lower-case hex SHA-256 of the extension's executable (often the app's own file).
        public package(set) var executable: String
        /// Lower-case hex SHA-256 of the extension's own entitlements file.
        public package(set) var entitlements: String

        /// Digests given as hex.
        public init(executable: String, entitlements: String) {
            self.executable = executable
            self.entitlements = entitlements
        }
    }

    /// The version of run.json's layout.
    public package(set) var formatVersion: Int
    /// The builds, oldest first: the gate's `--builds`, or a run's old and new build.
    public package(set) var builds: [String]
    /// The one path of `upgrade-runner run`; nil for a gate over `builds`.
    public package(set) var path: BuildPair?
    /// A gate's upgrade routes, closed under prefixes (`gate --routes`, or the default routes when
    /// they hold a multi-hop route such as `v1-to-v2-to-v3`); nil for the two-build paths of
    /// ``GatePlan/defaultPaths(builds:)`` (left out of run.json, whose bytes are then those of a
    /// gate before routes existed). Replay plans these same routes.
    public package(set) var routes: [BuildPair]?
    /// The release under test when it was named (`gate --release`): nil for the newest build (the
    /// last of ``builds``), and then left out of run.json, whose bytes stay those of a gate before
    /// releases were named. See ``releaseUnderTest``.
    public package(set) var release: String?
    /// `gate --strict`: a FAIL the old release already had decides the verdict too (and a warning
    /// blocks). Nil (left out of run.json) without it.
    public package(set) var strict: Bool?
    /// `--inputs minimal`: the gate's varied inputs cut to the minimal set (``InputSet``). Nil (left
    /// out of run.json) for the full set, the default.
    public package(set) var inputSet: InputSet?
    /// The device runtime; in a runtime matrix, the oldest of ``runtimes``.
    public package(set) var runtime: RuntimeVersion
    /// The runtimes of a matrix (`gate --runtimes`), two or more, oldest first; nil for one runtime.
    public package(set) var runtimes: [RuntimeVersion]?
    /// The test-case id the seeded data derives from.
    public package(set) var caseID: String
    /// The scenarios asked for.
    public package(set) var scenarios: [Scenario]
    /// The faults and crash point applied to the new build's first launch.
    public package(set) var faultPlan: FaultPlan
    /// Build id to the digests of its executable and entitlements file.
    public package(set) var buildFiles: [String: BuildFiles]
    /// The runner's version.
    public package(set) var runnerVersion: String
    /// The slice this run covers; nil for all of it.
    public package(set) var shard: ShardSpec?
    /// Build id to the names of its app extensions (build.json's `extensions`, in its order), for
    /// each build of the run that declares one: what the plan reads to run extension-first and
    /// interleavings on the paths whose new build has one (``Scenario/needsExtension``). Nil (left
    /// out of run.json, whose bytes are then those of a run before it) when no build declares one,
    /// and in a run.json of a runner before it, whose plan runs those scenarios on every path.
    public package(set) var extensions: [String: [String]]?
    /// The builds of the run that declare a synchronizable keychain secret (build.json's `keeps`,
    /// `"synchronizable": true`), in the run's build order: what the plan reads to run second-device on
    /// the paths whose last hop starts at one (``Scenario/needsSynchronizable``). Nil (left out of
    /// run.json) when none does, and in a run.json of a runner before it, whose plan runs second-device
    /// on every path (it was opt-in there).
    public package(set) var synchronizable: [String]?
    /// Where `inputs/` holds every build's files (`gate --archive-inputs`); nil when they were not archived.
    public package(set) var archivedInputs: ArchivedInputs?
    /// The digests of the run's status and verdict files (``ArchivePins``), written with the final
    /// run.json; nil while the run is under way, and in a run.json of a runner before them. Not
    /// part of ``digest``: they are the run's outputs, not its inputs.
    public package(set) var archivePins: ArchivePins?

    /// The current layout version.
    public static let currentFormatVersion = 1

    /// Inputs for a gate (`path` nil) or a single run (`path` set).
    public init(
        builds: [String], path: BuildPair? = nil, runtime: RuntimeVersion, caseID: String,
        scenarios: [Scenario], faultPlan: FaultPlan = .none, buildFiles: [String: BuildFiles],
        runnerVersion: String, shard: ShardSpec? = nil, routes: [BuildPair]? = nil
    ) {
        self.formatVersion = Self.currentFormatVersion
        self.builds = builds
        self.path = path
        self.routes = routes
        self.runtime = runtime
        self.caseID = caseID
        self.scenarios = scenarios.sorted()
        self.faultPlan = faultPlan
        self.buildFiles = buildFiles
        self.runnerVersion = runnerVersion
        self.shard = shard
    }

    /// The build whose paths decide the verdict: ``release``, else a run's new build, else the
    /// newest of ``builds``. Paths that end at an older build are shipped history (``GateReport/history``).
    public var releaseUnderTest: String { release ?? path?.new ?? builds.last ?? "" }

    /// Every runtime the run covers: ``runtimes``, or ``runtime`` alone.
    public var runtimeList: [RuntimeVersion] { runtimes ?? [runtime] }

    /// `iOS 17.5`, or `iOS 12.4, iOS 15.0, iOS 17.5` for a matrix.
    public var runtimeText: String { runtimeList.map(\.description).joined(separator: ", ") }

    /// `sha256:<hex>` of these inputs without the shard and the archive pins: every shard of one gate
    /// has the same digest, and merge refuses a folder whose digest differs.
    public var digest: String {
        var unsharded = self
        unsharded.shard = nil
        unsharded.archivePins = nil
        return "sha256:" + GateHash.hex(GateJSON.compact(unsharded))
    }

    /// The plan these inputs describe.
    package func plan() throws(GateError) -> GatePlan { try GatePlan(inputs: self) }

    /// Reads and checks `run.json` at `path`.
    /// - Throws: ``GateError`` naming the file when it is missing, not JSON of this layout, or of a newer version.
    public static func read(from path: String) throws(GateError) -> RunInputs {
        let inputs = try GateJSON.read(RunInputs.self, from: path)
        if inputs.formatVersion > currentFormatVersion {
            throw .malformed(
                path: path,
                reason: "formatVersion \(inputs.formatVersion) is newer than this runner reads (\(currentFormatVersion))")
        }
        if let runtimes = inputs.runtimes, runtimes.count < 2 || runtimes != Array(Set(runtimes)).sorted() {
            throw .malformed(path: path, reason: "field \"runtimes\" must list two or more runtimes, oldest first, each once")
        }
        if let release = inputs.release, !inputs.builds.contains(release) {
            throw .malformed(path: path, reason: "field \"release\" names \"\(release)\", which is not one of its builds")
        }
        for build in inputs.builds where inputs.buildFiles[build] == nil {
            throw .malformed(path: path, reason: "field \"buildFiles\" has no entry for build \"\(build)\"")
        }
        for (build, names) in (inputs.extensions ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard inputs.builds.contains(build), !names.isEmpty else {
                throw .malformed(
                    path: path,
                    reason: "field \"extensions\" names build \"\(build)\", "
                        + (names.isEmpty ? "with no extension" : "which is not one of its builds"))
            }
        }
        for build in inputs.synchronizable ?? [] where !inputs.builds.contains(build) {
            throw .malformed(
                path: path, reason: "field \"synchronizable\" names build \"\(build)\", which is not one of its builds")
        }
        return inputs
    }
}

/// The one JSON style of every artifact: sorted keys, no escaped slashes, pretty printed with a final newline.
package enum GateJSON {
    package static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The artifact bytes of `value`.
    package static func pretty<T: Encodable>(_ value: T) -> Data {
        var data = try! encoder(pretty: true).encode(value)
        data.append(0x0A)
        return data
    }

    /// The canonical bytes of `value`, for digests.
    static func compact<T: Encodable>(_ value: T) -> Data { try! encoder(pretty: false).encode(value) }

    /// Decodes the file at `path`.
    static func read<T: Decodable>(_ type: T.Type, from path: String) throws(GateError) -> T {
        guard FileManager.default.fileExists(atPath: path) else { throw .unreadable(path: path, reason: "is missing") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot be read")
        }
        do {
            let value = try JSONDecoder().decode(T.self, from: data)
            // A key given twice means two things to two readers (#37): refused, as in build.json.
            if let key = DuplicateKeys.first(in: data) {
                throw GateError.malformed(path: path, reason: DuplicateKeys.reason(key))
            }
            return value
        } catch let error as GateError {
            throw error
        } catch let DecodingError.keyNotFound(key, _) {
            throw .malformed(path: path, reason: "field \"\(key.stringValue)\" is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformed(path: path, reason: "field \"\(fieldPath(context.codingPath))\" has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .malformed(path: path, reason: "field \"\(fieldPath(context.codingPath))\" is null")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .malformed(path: path, reason: "field \"\(fieldPath(context.codingPath))\": \(context.debugDescription)")
        } catch {
            throw .malformed(path: path, reason: "is not valid JSON")
        }
    }

    private static func fieldPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
