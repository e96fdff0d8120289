/// Where a run's artifacts lie under its output folder: the one place that spells every artifact's
/// name (docs/architecture.md, "Artifacts"), which the writers (cells, launches), the leak scan,
/// merge, bundle and replay all follow.
///
/// ```
/// run.json gate.json junit.xml summary.md timings.json   the run's documents
/// inputs/                                                 the archived inputs (ArchivedInputs)
/// replay/                                                 a replay's folder, by default
/// paths/<path>/<scenario>/status/NN-<build>-<mode>.json
/// paths/<path>/<scenario>/logs/NN-<build>-<mode>.log
/// paths/<path>/<scenario>/entitlements.diff               the entitlements scenario's diff
/// paths/<path>/<scenario>/attempts.json                   an exploration cell's attempts
/// paths/<path>/<scenario>/device/                         a failed cell's redacted device
/// ```
/// `<path>` is a path id (`v1-to-v2`, `v1-to-v2-to-v3`, `none-to-v3`), with its runtime's folder
/// first in a runtime matrix (`iOS-15.0/v1-to-v2`).
public enum ArtifactLayout {
    /// `run.json`: the inputs.
    public static let runFile = "run.json"
    /// `gate.json`: the verdict.
    public static let gateFile = "gate.json"
    /// `junit.xml`: one test case per path and scenario.
    public static let junitFile = "junit.xml"
    /// `summary.md`: a table for people.
    public static let summaryFile = "summary.md"
    /// `timings.json`: wall time per cell and CPU time; not compared by replay, not part of the verdict.
    public static let timingsFile = "timings.json"
    /// Present while a run writes into the folder; removed after the final gate.json is in place.
    public static let inProgressMarker = ".upgrade-runner-in-progress"
    /// What a finished run wrote, one relative path a line (``RunManifest``): a rerun removes only those.
    public static let manifestFile = ".upgrade-runner-files"
    /// The folder a replay writes into by default, beside the run it replays.
    public static let replayFolder = "replay"
    /// The start of a rerun's folder inside a run's (`rerun-v1-to-v2-upgrade`): summary.md's rerun
    /// lines write there, never over the run they came from.
    public static let rerunPrefix = "rerun-"
    /// The entitlements scenario's diff, in its cell's folder.
    public static let entitlementsDiff = "entitlements.diff"
    /// An exploration cell's attempts, in its cell's folder.
    public static let attemptsFile = "attempts.json"
    /// seed-variants: which store each numbered folder of `variants/` goes without, in its cell's folder.
    public static let variantsFile = "variants.json"
    /// seed-variants: the folder of the variants' launches (`variants/1/status/...`), in its cell's folder.
    public static let variantsFolder = "variants"
    /// The status files and logs of the launches run on a copy of the device with the clock
    /// moved (honest-status at two clocks), in their cell's folder.
    public static let clockShiftedFolder = "clock-shifted"
    /// A failed cell's redacted device snapshot, a folder in its cell's folder.
    public static let deviceSnapshot = "device"
    /// The folder of every cell, under the output folder.
    public static let paths = "paths"
    /// The cells of the old build in the new build's place (pre-existing failures):
    /// `baseline/paths/v1-to-v1/reinstall/`, beside the plan's own `paths/`.
    public static let baseline = "baseline"
    /// A cell's status files, under its folder.
    public static let status = "status"
    /// A cell's launch logs, under its folder.
    public static let logs = "logs"

    /// `paths/<path>/<scenario>`, relative to the output folder.
    public static func cellFolder(path: String, scenario: Scenario) -> String { "\(paths)/\(path)/\(scenario)" }

    /// `<cell folder>/status/<stem>.json`.
    public static func statusFile(in cellFolder: String, stem: String) -> String { "\(cellFolder)/\(status)/\(stem).json" }

    /// `<cell folder>/logs/<stem>.log`.
    public static func logFile(in cellFolder: String, stem: String) -> String { "\(cellFolder)/\(logs)/\(stem).log" }

    /// Whether `parts`, a path's components below `paths/`, name a status file
    /// (`<path>/<scenario>/status/<name>.json`, with a runtime folder first in a matrix).
    static func isStatusFile(_ parts: [Substring], matrix: Bool) -> Bool {
        (parts.count == 4 || (matrix && parts.count == 5)) && parts[parts.count - 2] == Substring(status)
            && parts.last?.hasSuffix(".json") == true
    }
}
