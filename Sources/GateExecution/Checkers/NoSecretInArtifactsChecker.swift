import GateModel
/// The checker of `no-secret-in-artifacts`: turns a leak scan of the output folder into findings.
///
/// Each expected cell of the condition owns its unit's folder, `paths/<path>/<scenario>/`: a leak
/// there is a FAIL of that cell, an unreadable file an UNKNOWN, and otherwise the cell PASSes. A
/// leak anywhere else (run.json, a log beside the paths) is a FAIL of the whole run. The verdict
/// files themselves are written after the scan, only from findings, which hold names and never values.
enum NoSecretInArtifactsChecker {
    /// The findings for `result`, a scan of the output folder, over `cells` (other conditions' cells are ignored).
    ///
    /// `unseeded`: labels no cell of the run seeded in a shape with bytes (only `empty`, which has
    /// none and can never be found): a clean scan proves nothing about them, so a cell with no leak
    /// is not judged instead of PASS (a narrowed gate whose rotation gave a label only `empty`).
    static func findings(for result: SecretScanResult, cells: [GateCell], unseeded: [String] = []) -> [GateFinding] {
        let owned = cells.filter { $0.condition == .noSecretInArtifacts }
        func folder(_ cell: GateCell) -> String { ArtifactLayout.cellFolder(path: cell.path, scenario: cell.scenario) + "/" }
        var findings: [GateFinding] = []
        var claimed = Set<String>()
        for cell in owned.sorted() {
            let prefix = folder(cell)
            let leaks = result.leaks.filter { $0.file.hasPrefix(prefix) }
            let unreadable = result.unreadable.filter { $0.hasPrefix(prefix) }
            claimed.formUnion(leaks.map(\.file) + unreadable)
            for leak in leaks {
                findings.append(
                    GateFinding(
                        .noSecretInArtifacts, path: cell.runtimePath, scenario: cell.scenario, item: leak.file,
                        verdict: .fail,
                        detail: "holds secret #\(leak.secretIndex) (\(leak.secretLabel)) as \(leak.encoding.rawValue)"))
            }
            for file in unreadable {
                findings.append(
                    GateFinding(
                        .noSecretInArtifacts, path: cell.runtimePath, scenario: cell.scenario, item: file,
                        verdict: .unknown, detail: "could not be read, so the leak scan cannot vouch for it"))
            }
            if leaks.isEmpty && unreadable.isEmpty && !unseeded.isEmpty {
                let labels = unseeded.sorted().joined(separator: ", ")
                findings.append(
                    GateFinding(
                        .noSecretInArtifacts, path: cell.runtimePath, scenario: cell.scenario, verdict: .pass,
                        detail: "no seeded secret under \(prefix), but \(labels) was seeded only empty in this run's cells "
                            + "(nothing to find): not judged", notJudged: true))
            } else if leaks.isEmpty && unreadable.isEmpty {
                findings.append(
                    GateFinding(
                        .noSecretInArtifacts, path: cell.runtimePath, scenario: cell.scenario, verdict: .pass,
                        detail: "no seeded secret under \(prefix) in any encoding"))
            }
        }
        for leak in result.leaks where !claimed.contains(leak.file) {
            findings.append(
                GateFinding(
                    .noSecretInArtifacts, path: nil, scenario: nil, item: leak.file, verdict: .fail,
                    detail: "holds secret #\(leak.secretIndex) (\(leak.secretLabel)) as \(leak.encoding.rawValue)"))
        }
        for file in result.unreadable where !claimed.contains(file) {
            findings.append(
                GateFinding(
                    .noSecretInArtifacts, path: nil, scenario: nil, item: file, verdict: .unknown,
                    detail: "could not be read, so the leak scan cannot vouch for it"))
        }
        return findings
    }
}
