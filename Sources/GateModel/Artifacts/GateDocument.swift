import FileUtility
import Foundation
import UpgradeContract

/// The content of `gate.json`: the report, and the inputs it judged.
///
/// Modelled on in-toto's test-result predicate and SLSA's verification summary: the inputs' digest
/// and identity first, then a verdict per requirement and overall. `finished` is false in the
/// placeholder written when a run starts, so an interrupted run leaves an UNKNOWN verdict behind.
public struct GateDocument: Codable, Equatable, Sendable {
    /// The version of gate.json's layout.
    public package(set) var formatVersion: Int
    /// Whether the run finished; false in the placeholder written at the start.
    public package(set) var finished: Bool
    /// `sha256:<hex>` of run.json's inputs without the shard (see ``RunInputs/digest``).
    public package(set) var inputsDigest: String
    /// The test-case id.
    public package(set) var caseID: String
    /// The device runtime (the oldest of a matrix's).
    public package(set) var runtime: RuntimeVersion
    /// A runtime matrix's runtimes, oldest first; nil (and absent) for one runtime.
    public package(set) var runtimes: [RuntimeVersion]?
    /// The builds, oldest first.
    public package(set) var builds: [String]
    /// The slice judged, or nil for all of it.
    public package(set) var shard: ShardSpec?
    /// The judged report.
    public package(set) var report: GateReport

    /// The current layout version.
    public static let currentFormatVersion = 1

    /// A document for `report` on `inputs`.
    public init(report: GateReport, inputs: RunInputs, finished: Bool) {
        self.formatVersion = Self.currentFormatVersion
        self.finished = finished
        self.inputsDigest = inputs.digest
        self.caseID = inputs.caseID
        self.runtime = inputs.runtime
        self.runtimes = inputs.runtimes
        self.builds = inputs.builds
        self.shard = inputs.shard
        self.report = report
    }

    private enum CodingKeys: String, CodingKey {
        case formatVersion, finished, inputsDigest, caseID, runtime, runtimes, builds, shard
    }

    /// Decodes the header keys and the report's keys from the same object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        finished = try container.decode(Bool.self, forKey: .finished)
        inputsDigest = try container.decode(String.self, forKey: .inputsDigest)
        caseID = try container.decode(String.self, forKey: .caseID)
        runtime = try container.decode(RuntimeVersion.self, forKey: .runtime)
        runtimes = try container.decodeIfPresent([RuntimeVersion].self, forKey: .runtimes)
        builds = try container.decode([String].self, forKey: .builds)
        shard = try container.decodeIfPresent(ShardSpec.self, forKey: .shard)
        report = try GateReport(from: decoder)
    }

    /// Encodes the header and the report as one flat object, so `verdict` sits at the top level.
    public func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encode(finished, forKey: .finished)
        try container.encode(inputsDigest, forKey: .inputsDigest)
        try container.encode(caseID, forKey: .caseID)
        try container.encode(runtime, forKey: .runtime)
        try container.encodeIfPresent(runtimes, forKey: .runtimes)
        try container.encode(builds, forKey: .builds)
        try container.encodeIfPresent(shard, forKey: .shard)
    }

    /// Reads and checks gate.json at `path`.
    /// - Throws: ``GateError`` naming the file when it is missing, malformed or of a newer layout.
    public static func read(from path: String) throws(GateError) -> GateDocument {
        let document = try GateJSON.read(GateDocument.self, from: path)
        if document.formatVersion > currentFormatVersion {
            throw .malformed(
                path: path,
                reason: "formatVersion \(document.formatVersion) is newer than this runner reads (\(currentFormatVersion))")
        }
        return document
    }
}
