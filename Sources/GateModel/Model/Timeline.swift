import Foundation

/// What a failing attempt (or a failing cell that is no exploration) did, step by step, as a reader
/// retraces it: each launch with its numbered store operations (operation, store, item, OSStatus or
/// errno), where each declared secret was after an operation when the runner knows it, the crash or
/// fault point, and the recovery's launches with where the secrets were at each checkpoint.
///
/// Names, statuses and places only, never a value. gate.json holds every timeline in full, the
/// cell's attempts.json its attempts'; summary.md shows the first ``summaryLineLimit`` lines of them.
public struct Timeline: Codable, Hashable, Sendable {
    /// `v1-to-v2/crash-points`.
    public package(set) var cell: String
    /// The attempt (`crash 3`, `fault 2 errSecIO`); nil for a cell that is no exploration.
    public package(set) var attempt: String?
    public package(set) var lines: [String]

    package init(cell: String, attempt: String?, lines: [String]) {
        self.cell = cell
        self.attempt = attempt
        self.lines = lines
    }

    /// How many lines of timelines summary.md shows, all timelines together.
    public static let summaryLineLimit = 50

    /// `v1-to-v2/crash-points, attempt crash 3`, or the cell alone.
    public var title: String { attempt.map { "\(cell), attempt \($0)" } ?? cell }
}
