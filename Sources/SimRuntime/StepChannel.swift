import Foundation

/// The runner's hold on a launch's store operations (issue 39, interleavings): two FIFOs the runner
/// made and holds open. Before each store operation the seam numbers (every keychain call, every
/// supervised file call of the app's own) the process writes the operation's name and a newline to
/// ``reportPath``, then waits for one byte on ``grantPath``: the runner grants steps one at a time,
/// and so decides which of two processes on one device goes next. A launch without a channel (every
/// launch but an interleaving's) never opens, writes or reads anything for it.
public struct StepChannel: Hashable, Sendable, Codable {
    /// The runner writes one byte here for each step it grants.
    public var grantPath: String
    /// The process writes one line here at each step it waits at: the operation's name.
    public var reportPath: String

    public init(grantPath: String, reportPath: String) {
        self.grantPath = grantPath
        self.reportPath = reportPath
    }
}

/// The process's end of a ``StepChannel``: opened once, when the seam is made (before file
/// supervision starts, on descriptors above the ones it watches, as the mutation log's).
final class StepGate: @unchecked Sendable {
    private let grant: Int32
    private let report: Int32
    // One step at a time: a second thread's store call waits for the first one's grant.
    private let lock = NSLock()

    init?(_ channel: StepChannel) {
        let grant = open(channel.grantPath, O_RDONLY | O_CLOEXEC)
        guard grant >= 0 else { return nil }
        let report = open(channel.reportPath, O_WRONLY | O_CLOEXEC)
        guard report >= 0 else {
            close(grant)
            return nil
        }
        self.grant = ProcessSupervisor.reserve(grant)
        self.report = ProcessSupervisor.reserve(report)
    }

    deinit {
        close(grant)
        close(report)
    }

    /// Says that the process is at `operation` and waits until the runner grants it. A runner that
    /// went away (end of file) lets the process go on: it dies with its launcher anyway.
    func wait(_ operation: StoreOperation) {
        lock.withLock {
            var line = Array((operation.rawValue + "\n").utf8)
            _ = line.withUnsafeMutableBytes { write(report, $0.baseAddress, $0.count) }
            var byte: UInt8 = 0
            while read(grant, &byte, 1) < 0 && errno == EINTR {}
        }
    }
}
