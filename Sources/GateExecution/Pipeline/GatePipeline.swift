import Foundation
import GateModel
import SimDevice
import UpgradeContract

/// The one way a gate runs: `gate`, `run`, `replay`, `mutants` and ``ReleaseGate/run(_:progress:)``
/// all come here, each with the builds it resolved (``resolve(_:in:)``) and checked.
///
/// The steps, in order: plan (once: a plan that cannot run is bad input found before any executable
/// is hashed or launched, and the artifact writer takes this plan), pin the builds, then
/// ``GateRun``: preflight, the UNKNOWN placeholders, the cells, the leak scan, the verdict and the
/// artifacts.
package struct GatePipeline {
    /// What to run; its `buildFiles` are set by the pin step.
    package var inputs: RunInputs
    /// Every build the plan names, resolved.
    package var builds: [String: Build]
    package var out: String
    /// How it runs: jobs, timeout, force, archived inputs, kept devices, the stage.
    package var settings: RunSettings
    package var progress: GateProgress = .silent
    /// Whether a deciding cell's FAIL is judged against the old build in its place (``PreExisting``).
    package var judgesPreExisting = true
    /// The builds' pins when the caller has them already (replay checks them against run.json's).
    package var pins: [String: RunInputs.BuildFiles]? = nil

    package init(
        inputs: RunInputs, builds: [String: Build], out: String, settings: RunSettings, progress: GateProgress = .silent,
        pins: [String: RunInputs.BuildFiles]? = nil
    ) {
        self.inputs = inputs
        self.builds = builds
        self.out = out
        self.settings = settings
        self.progress = progress
        self.pins = pins
    }

    /// Every build of `ids` from `catalog`, checked before anything runs (a bad build id or a
    /// missing executable is bad input and changes nothing).
    package static func resolve(_ ids: [String], in catalog: BuildCatalog) throws -> [String: Build] {
        var builds: [String: Build] = [:]
        for id in ids where builds[id] == nil {
            let build = try catalog.build(id)
            // Every verb reads the condition the way `mutants` does: an unknown one is a typo, not a
            // build that no condition catches.
            if let text = build.manifest.expectedCondition, GateCondition(rawValue: text) == nil {
                let known = GateCondition.allCases.map(\.rawValue)
                throw GateError.malformed(
                    path: build.folder + "/" + BuildManifest.fileName,
                    reason: "field \"expectedCondition\" names unknown condition \(QuotedValue.text(text))"
                        + (Spelling.suggestion(for: text, among: known).map { "; did you mean \"\($0)\"?" } ?? ""))
            }
            builds[id] = build
        }
        return builds
    }

    /// The sha256 of each build's executable, entitlements and manifest (and each app extension's
    /// executable), as run.json pins them. The builds
    /// are hashed side by side (an app build is about 80 MB); when several cannot be read, the
    /// error thrown is the first build's in id order.
    package static func pin(_ builds: [String: Build]) throws -> [String: RunInputs.BuildFiles] {
        let ids = builds.keys.sorted()
        let pinned = try Slots.map(ids) { id throws(GateError) in
            let build = builds[id]!
            var files = try RunInputs.BuildFiles(
                executableAt: build.executablePath, entitlementsAt: build.entitlementsPath,
                manifestAt: build.folder + "/" + BuildManifest.fileName)
            // Each extension's executable too (often the app's own file, hashed once): replay and the
            // archived inputs check them as they check the app's.
            if !build.extensions.isEmpty {
                var digests: [String: RunInputs.ExtensionFiles] = [:]
                for item in build.extensions {
                    digests[item.name] = RunInputs.ExtensionFiles(
                        executable: item.executablePath == build.executablePath
                            ? files.executable : try GateHash.hexOfFile(atPath: item.executablePath),
                        entitlements: try GateHash.hexOfFile(atPath: item.entitlementsPath))
                }
                files.extensions = digests
            }
            return files
        }
        return Dictionary(uniqueKeysWithValues: zip(ids, pinned))
    }

    /// The secrets of every case a run seeds (its own, and the extra cases stale-leftovers and
    /// cleanup place on their devices), for the leak scan: each secret label its builds declare in
    /// every ``SecretShape`` a cell may seed it in. The ``SecretShape/alnum`` values come first, in
    /// the order they had before shapes existed (so a leak's secret number is the same), then every
    /// other shape's; an empty value is left out (there is nothing to find).
    package static func secrets(caseID: String, labels: [String]) -> [Secret] {
        let ids = ExtraCase.allIDs(of: caseID)
        let plain = ids.flatMap { id in
            labels.map { Secret(label: "\($0) of case \(id)", value: CaseSecrets.value(caseID: id, label: $0, shape: .alnum)) }
        }
        let shaped = SecretShape.allCases.filter { $0 != .alnum && $0 != .empty }.flatMap { shape in
            ids.flatMap { id in
                labels.map {
                    Secret(label: "\($0) of case \(id), \(shape)", value: CaseSecrets.value(caseID: id, label: $0, shape: shape))
                }
            }
        }
        return plain + shaped
    }

    /// The secrets of a run of `builds`.
    package static func secrets(caseID: String, builds: some Sequence<Build>) -> [Secret] {
        secrets(caseID: caseID, labels: CaseDeclarations.secretLabels(of: builds))
    }

    /// Runs the steps and returns the report and the inputs as run.json records them (both also
    /// written to ``out``).
    package func run() throws -> (report: GateReport, inputs: RunInputs) {
        let plan = try inputs.plan()
        var inputs = inputs
        inputs.buildFiles = try pins ?? Self.pin(builds)
        if settings.archiveInputs { inputs.archivedInputs = try ArchivedInputs.plan(for: builds, pins: inputs.buildFiles) }
        var run = GateRun(inputs: inputs, plan: plan, outFolder: out, settings: settings, progress: progress)
        run.judgesPreExisting = judgesPreExisting
        return (try run.execute(builds: builds), inputs)
    }
}
