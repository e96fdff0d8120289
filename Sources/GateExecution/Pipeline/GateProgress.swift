import Foundation
import GateModel

/// Progress of a gate on standard error: a start line with the plan, then a running count with
/// the elapsed time as cells finish. On a terminal the count is one live line rewritten in place
/// and only cells that did not pass stay on screen; otherwise (a CI log) each finished cell is a
/// plain line. `--quiet` prints nothing. Progress never goes to standard output, which holds the
/// verdict table alone.
package final class GateProgress: @unchecked Sendable {
    package enum Style {
        case quiet, lines, live
    }

    private let style: Style
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private let started = DispatchTime.now().uptimeNanoseconds
    private var total = 0
    private var finished = 0
    /// The baseline cells (``PreExisting``), counted apart from the planned ones.
    private var baselineTotal = 0
    private var baselinesFinished = 0

    /// What starts the live line's every rewrite: a carriage return and erase-line, the one control
    /// sequence progress prints (everything else printed has its control characters escaped).
    package static let liveReset = "\r\u{1B}[K"

    package init(style: Style, write: @escaping @Sendable (String) -> Void) {
        self.style = style
        self.write = write
    }

    /// Nothing printed (in-process runs such as `mutants`' inner gates).
    static let silent = GateProgress(style: .quiet) { _ in }

    private var elapsed: String {
        String(format: "%.1fs", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }

    /// `gate: 45 cells (6 paths x 15 scenarios) of builds v1, v2, v3, 2 jobs, case id demo, iOS 17.5`.
    func start(cells: Int, paths: Int, scenarios: Int, inputs: RunInputs, jobs: Int) {
        lock.withLock { total = cells }
        guard style != .quiet else { return }
        var line =
            "gate: \(cells) cells (\(paths) path\(paths == 1 ? "" : "s"), \(scenarios) scenario\(scenarios == 1 ? "" : "s")) of builds \(inputs.builds.joined(separator: ", ")), "
            + "\(jobs) job\(jobs == 1 ? "" : "s"), case id \(inputs.caseID), \(inputs.runtimeText)"
        if let shard = inputs.shard { line += ", shard \(shard)" }
        write(line + "\n")
    }

    /// Preflight found builds that register no startup read: one line, before the first cell.
    /// `gate: v1, v2 register no startup read (AppBuild.startupRead): ...`.
    func noStartupRead(_ builds: [String]) {
        guard style != .quiet else { return }
        let verb = builds.count == 1 ? "registers" : "register"
        write(
            "gate: \(builds.joined(separator: ", ")) \(verb) no startup read (AppBuild.startupRead): stays-signed-in is not judged "
                + "where \(builds.count == 1 ? "it is" : "one is") the new build, and the default verify reads the declared stores, not as the app reads\n"
        )
    }

    /// The planned cells are done; `count` baseline cells follow (the old release in the new one's
    /// place, for the deciding cells that failed), counted apart so no count runs past its total.
    func baselines(_ count: Int) {
        lock.withLock { baselineTotal = count }
    }

    /// One cell finished with `verdict` after `seconds`; `baseline`: one of the baseline cells.
    func finished(_ cell: String, _ verdict: Verdict, seconds: Double, baseline: Bool = false) {
        let (count, of) = lock.withLock {
            if baseline {
                baselinesFinished += 1
                return (baselinesFinished, baselineTotal)
            }
            finished += 1
            return (finished, total)
        }
        let format = baseline ? "[baseline %d/%d %@] %@ %@ (%.2fs)" : "[%d/%d %@] %@ %@ (%.2fs)"
        let line = String(format: format, count, of, elapsed, verdict.rawValue, cell, seconds)
        switch style {
        case .quiet: return
        case .lines: write(line + "\n")
        case .live:
            // Cells that did not pass stay on screen; the rest only move the live line on.
            write(Self.liveReset + line + (verdict == .pass ? "" : "\n"))
        }
    }

    /// The run is over: the live line is cleared and the last count stays.
    func end() {
        guard style != .quiet else { return }
        let (count, of): (Int, Int) = lock.withLock { (finished, total) }
        let (baselines, baselineCount): (Int, Int) = lock.withLock { (baselinesFinished, baselineTotal) }
        let extra = baselineCount == 0 ? "" : ", and \(baselines) of \(baselineCount) baseline cells"
        let line = "gate: \(count) of \(of) cells finished\(extra) in \(elapsed)"
        write((style == .live ? Self.liveReset : "") + line + "\n")
    }
}
