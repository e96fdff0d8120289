import UpgradeContract

/// Which ``SecretShape`` each declared secret takes in each cell of a gate: one shape per (cell,
/// label), rotating through the shapes the label's stores can hold as the scenarios go, so that the
/// default gate seeds every label in every shape without adding a cell.
///
/// The shape of a label in a cell depends on the case id, the label, the cell's scenario and the
/// shapes the cell's builds allow, never on the path: the same scenario on two paths seeds the same
/// shape (a pre-existing check, the old build in the new one's place, meets the same input), and a
/// path that runs at least as many scenarios as the label has shapes covers every one of them.
package enum ShapeRotation {
    /// The shape of `label` in a cell of `scenario`, among `allowed` (in ``SecretShape`` order; empty
    /// gives ``SecretShape/alnum``).
    ///
    /// The scenarios that may seed every shape rotate through `allowed` in ``Scenario`` order (there
    /// are more of them than shapes, so together they seed each one); those that never seed `empty`
    /// (``tellsValuesApart``) rotate on their own through the rest.
    ///
    /// `runScenarios` (the run's scenarios, nil: not known) turns the rotation one step on when
    /// every one of them would seed the label `empty`: a narrowed run (`--scenarios upgrade`) then
    /// still seeds bytes that could leak, so its no-secret-in-artifacts is judged. A run with any
    /// scenario that tells values apart (the default gate) never turns, so its shapes do not depend
    /// on which other scenarios run beside a cell.
    package static func shape(
        caseID: String, label: String, scenario: Scenario, allowed: [SecretShape], runScenarios: [Scenario]? = nil
    ) -> SecretShape {
        let restricted = tellsValuesApart.contains(scenario)
        let shapes = restricted ? allowed.filter { $0 != .empty } : allowed
        guard !shapes.isEmpty else { return .alnum }
        let peers = Scenario.allCases.filter { tellsValuesApart.contains($0) == restricted }
        let offset = Int(CaseSecrets.fnv1a(caseID + "\u{0}" + label) % UInt64(shapes.count))
        func rotated(_ scenario: Scenario) -> SecretShape { shapes[(peers.firstIndex(of: scenario)! + offset) % shapes.count] }
        let shape = rotated(scenario)
        guard shape == .empty, let run = runScenarios, !run.contains(where: tellsValuesApart.contains),
            run.allSatisfy({ rotated($0) == .empty })
        else { return shape }
        return shapes[(peers.firstIndex(of: scenario)! + offset + 1) % shapes.count]
    }

    /// The scenarios that tell the case's value from other bytes on the device, and so never seed
    /// `empty`, which has no bytes and is every case's value: stale-leftovers and cleanup (another
    /// case's data beside the cell's own), malformed (a store the seed malformed is one where the
    /// case's value is nowhere), seed-variants (a store the seed wrote holds a secret when the
    /// case's value is in it; the others are varied away), backup-restore (survives-restore asks
    /// which of the case's values reached the restored device).
    package static let tellsValuesApart = Set(Scenario.allCases.filter(\.traits.tellsValuesApart))

    /// The shapes a label may take in a cell whose builds keep it in `locations` and narrow it to
    /// `narrowed` (each build's declared ``DeclaredItem/shapes``, nil where it does not narrow), in
    /// ``SecretShape`` order.
    package static func allowed(locations: [StoreLocation], narrowed: [[SecretShape]?]) -> [SecretShape] {
        SecretShape.allCases.filter { shape in
            locations.allSatisfy(shape.fits) && narrowed.allSatisfy { $0?.contains(shape) ?? true }
        }
    }
}

extension GateReport {
    /// The shapes one secret label was seeded in across the run's cells, and the cells where a
    /// shape was skipped or narrowed.
    public struct SecretShapes: Codable, Equatable, Sendable, Comparable {
        /// The declared label (`authToken`).
        public package(set) var label: String
        /// Every shape the label was seeded in by at least one cell, in ``SecretShape`` order.
        public package(set) var covered: [SecretShape]
        /// Shapes no cell seeded: the stores cannot hold them or a build narrowed them away, sorted.
        public package(set) var notCovered: [SecretShape]?
        /// Cells whose shape for the label was skipped, with why
        /// (`v1-to-v2/upgrade: bytes skipped: v2 asked for the value as text (String)`), sorted.
        public package(set) var skipped: [String]?
        /// Builds that narrow the label's shapes, with their reasons (`v3: alnum, long, because: a hex token`).
        public package(set) var narrowedBy: [String]?

        package init(label: String, covered: [SecretShape], notCovered: [SecretShape]?, skipped: [String]?, narrowedBy: [String]?)
        {
            self.label = label
            self.covered = covered
            self.notCovered = notCovered
            self.skipped = skipped
            self.narrowedBy = narrowedBy
        }

        public static func < (lhs: SecretShapes, rhs: SecretShapes) -> Bool { lhs.label < rhs.label }

        /// The shapes of a run from its shards' (each its own cells'): per label, the union of the
        /// shapes seeded and of the skips; the shapes no shard seeded are the ones not covered.
        package static func merged(_ parts: [SecretShapes]) -> [SecretShapes] {
            Dictionary(grouping: parts, by: \.label).map { label, entries in
                let covered = Set(entries.flatMap(\.covered)).sorted()
                let missing = SecretShape.allCases.filter { !covered.contains($0) }
                let skipped = Set(entries.flatMap { $0.skipped ?? [] }).sorted()
                return SecretShapes(
                    label: label, covered: covered, notCovered: missing.isEmpty ? nil : missing,
                    skipped: skipped.isEmpty ? nil : skipped, narrowedBy: entries.compactMap(\.narrowedBy).first)
            }.sorted()
        }
    }
}
