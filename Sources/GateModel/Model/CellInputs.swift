import Foundation

/// What one cell of a gate ran: its launches, counting those of every copy of its device (an
/// exploration's attempts, each seed variant, the run at a second clock), and the inputs the gate
/// varies in it beyond the builds and the scenario. Deterministic: the same inputs give the same
/// counts. summary.md's "Inputs" table sums it per path.
public struct CellInputs: Codable, Hashable, Sendable {
    /// `v1-to-v2/upgrade`.
    public package(set) var cell: String
    /// App launches of every device of the cell.
    public package(set) var launches: Int
    /// The device clocks the cell's new build first launched at, as offsets from the cell's fixed
    /// date: `+0 d` (every cell), `+412 d` (late-upgrade), and the second clock of honest-status
    /// (`+85 d, every date`). Nil when only the fixed date.
    public package(set) var clocks: [String]?
    /// seed-variants: each variant's store (`without file Documents/Preferences.plist`). Nil elsewhere.
    public package(set) var variants: [String]?

    package init(cell: String, launches: Int, clocks: [String]? = nil, variants: [String]? = nil) {
        self.cell = cell
        self.launches = launches
        self.clocks = clocks
        self.variants = variants
    }
}

/// Which of the inputs the gate varies a run uses (`--inputs`): all of them (the default), or the
/// minimal set for a quicker gate: no late upgrade, no seed variants, no second clock for
/// honest-status.
public enum InputSet: String, Codable, CaseIterable, Sendable {
    case full
    case minimal

    /// The scenarios the minimal set leaves out.
    public static let fullOnly: Set<Scenario> = [.lateUpgrade, .seedVariants]
}
