import Foundation
import GateModel
import SimDevice
import UpgradeContract

/// What the run seeded each secret label as (``SecretShape``), for the report and the summary: the
/// shapes its cells covered, the ones none could, the cells that skipped one, and the builds that
/// narrow one with their reasons.
enum ShapeCoverage {
    /// The skips of one cell: each label whose shape holds bytes that are not UTF-8 and that one of
    /// the cell's launches asked for as text (``LaunchStatus/textReadsOfBytes``). That launch got the
    /// label's alnum value, so the cell judged the alnum value, not the shape: noted, never failed.
    static func skips(_ evidence: CellEvidence, declarations: CaseDeclarations) -> [(label: String, note: String)] {
        var asked: [String: Set<String>] = [:]
        for launch in evidence.launches {
            for label in launch.status?.textReadsOfBytes ?? [] { asked[label, default: []].insert(launch.build) }
        }
        return asked.keys.sorted().map { label in
            let builds = asked[label]!.sorted().joined(separator: ", ")
            let shape = declarations.shapes[label] ?? .alnum
            return (
                label,
                "\(evidence.unit): \(shape) skipped: \(builds) asked for the value as text (a String cannot hold bytes that are not UTF-8), so the cell seeded and judged its alnum value"
            )
        }
    }

    /// The report's section: for every secret label of `units`' cells, the shapes seeded, the ones
    /// not, the skips (`skips`: label to the cells' notes) and the narrowing builds.
    static func report(
        units: [PlanUnit], builds: [String: Build], caseID: String, skips: [String: [String]],
        runScenarios: [Scenario]? = nil
    ) -> [GateReport.SecretShapes] {
        // The cells each label was given each shape in; a shape counts as seeded when one of them
        // did not skip it (a build that asked for `bytes` as text seeded `alnum` there instead).
        var assigned: [String: [SecretShape: [String]]] = [:]
        for unit in units {
            let declarations = CaseDeclarations(
                old: unit.path.old.flatMap { builds[$0] }, via: unit.path.via.compactMap { builds[$0] },
                new: builds[unit.path.new]!, caseID: caseID, scenario: unit.scenario, runScenarios: runScenarios)
            for (label, shape) in declarations.shapes {
                assigned[label, default: [:]][shape, default: []].append(unit.description)
            }
        }
        var covered: [String: Set<SecretShape>] = [:]
        for (label, cells) in assigned {
            let skipped = skips[label] ?? []
            covered[label] = Set(
                cells.filter { shape, cells in
                    cells.contains { cell in !skipped.contains { $0.hasPrefix("\(cell): \(shape.rawValue) skipped") } }
                }.keys)
        }
        var narrowed: [String: [String]] = [:]
        for (id, build) in builds.sorted(by: { $0.key < $1.key }) {
            for item in build.manifest.keeps?.secrets ?? [] {
                guard let shapes = item.shapes else { continue }
                narrowed[item.label, default: []].append(
                    "\(id): \(shapes.map(\.rawValue).joined(separator: ", ")), because: \(item.shapesReason ?? "")")
            }
        }
        return covered.keys.sorted().map { label in
            let seeded = covered[label]!.sorted()
            let skipped = (skips[label] ?? []).sorted()
            let missing = SecretShape.allCases.filter { !seeded.contains($0) }
            return GateReport.SecretShapes(
                label: label, covered: seeded, notCovered: missing.isEmpty ? nil : missing,
                skipped: skipped.isEmpty ? nil : skipped, narrowedBy: narrowed[label])
        }
    }
}
