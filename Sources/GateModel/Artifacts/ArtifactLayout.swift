/// Where a run's artifacts lie under its output folder: the one place that spells the layout
/// (DESIGN.md's "Artifacts"), which the writers (cells, launches), the leak scan, merge and replay
/// all follow.
///
/// ```
/// paths/<path>/<scenario>/status/NN-<build>-<mode>.json
/// paths/<path>/<scenario>/logs/NN-<build>-<mode>.log
/// ```
/// `<path>` is a path id (`v1-to-v2`, `v1-to-v2-to-v3`, `none-to-v3`), with its runtime's folder
/// first in a runtime matrix (`iOS-15.0/v1-to-v2`).
public enum ArtifactLayout {
    /// The folder of every cell, under the output folder.
    public static let paths = "paths"
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
