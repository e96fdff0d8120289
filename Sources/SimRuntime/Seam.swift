import Foundation

/// What a store operation touched: names only, never a value.
public struct SeamSubject: Hashable, Sendable, Codable {
    /// The keychain class (`genp`, `inet`, ...) or the store kind (`preferences`, `file`).
    public var store: String
    public var service: String?
    public var account: String?
    /// A preference key or a file path inside the container (`<group id>/...` in an app group).
    public var name: String?
    /// The destination of a rename or a link.
    public var target: String?

    public init(store: String, service: String? = nil, account: String? = nil, name: String? = nil, target: String? = nil) {
        self.store = store
        self.service = service
        self.account = account
        self.name = name
        self.target = target
    }
}

/// One line of the mutation log: an operation, what it touched, how it ended.
public struct SeamEntry: Hashable, Sendable, Codable {
    /// The position of this call among all calls through the seam, from 1.
    public var sequence: Int
    public var operation: StoreOperation
    public var subject: SeamSubject
    public var status: Int32
    /// The mutation's number when this call changed the store, from 1.
    public var mutation: Int?
    /// Set when a fault of the plan decided this call's answer.
    public var injected: FaultAction?
}

/// The one place every store operation of an app passes through.
///
/// It counts calls per operation and mutations overall, hands each call's entry to a sink (the
/// launch's mutation log), applies the fault plan and, at the planned crash point, ends the process
/// with SIGKILL right after the mutation committed, the way a watchdog or the OOM killer would.
public final class Seam: @unchecked Sendable {
    /// The answer of ``begin(_:)``: run the operation, or answer without touching the store.
    public enum Decision: Equatable, Sendable {
        case proceed
        case fail(Int32)
        case pretendSuccess
    }

    private let lock = NSLock()
    private var plan: FaultPlan
    /// Calls so far by operation, keyed by its raw value: a dictionary keyed by the enum itself
    /// cost an app launch a scan of the executable's conformance records for its `Hashable`.
    private var calls: [String: Int] = [:]
    private var sequence = 0
    private var mutationCount = 0
    private let sink: (@Sendable (SeamEntry) -> Void)?
    private let crash: @Sendable (Int) -> Void
    private var journal: PowerLoss?
    /// The runner's hold on each store operation (``StepChannel``): set only for a launch whose
    /// context has a channel, before the first call; nil costs nothing.
    private var gate: StepGate?

    /// Creates a seam.
    /// - Parameters:
    ///   - plan: the faults and the crash point.
    ///   - sink: receives every entry, in order, before a planned crash.
    ///   - crash: called with the mutation number at the planned crash point; the default kills
    ///     the process with SIGKILL.
    public init(
        plan: FaultPlan = .none,
        sink: (@Sendable (SeamEntry) -> Void)? = nil,
        crash: @escaping @Sendable (Int) -> Void = Seam.killProcess
    ) {
        self.plan = plan
        self.sink = sink
        self.crash = crash
        journal = Self.journal(for: plan)
    }

    /// A plan's power loss starts its record with the launch: what the launch changes must be known
    /// from its first call.
    private static func journal(for plan: FaultPlan) -> PowerLoss? {
        plan.powerLoss && plan.crashAfterMutation != nil ? PowerLoss() : nil
    }

    /// What the planned power loss will take, recorded as the launch goes; nil when the plan has none.
    public var powerLoss: PowerLoss? { lock.withLock { journal } }

    /// The seam of this process: from the launch context when there is one, else a seam with no plan.
    public static let process: Seam = {
        guard let context = LaunchContext.current else { return Seam() }
        let seam: Seam
        if let path = context.mutationLogPath, let file = MutationLogFile(path: path) {
            let sink: @Sendable (SeamEntry) -> Void = { file.append($0) }
            seam = Seam(plan: context.faultPlan, sink: sink)
        } else {
            seam = Seam(plan: context.faultPlan)
        }
        if let channel = context.steps {
            guard let gate = StepGate(channel) else {
                FileHandle.standardError.write(Data("launch context: cannot open the step channel \(channel.grantPath)\n".utf8))
                exit(2)
            }
            seam.gate = gate
        }
        return seam
    }()

    /// Replaces the fault plan (for in-process tests); call counts are kept.
    public func setPlan(_ plan: FaultPlan) {
        lock.withLock {
            self.plan = plan
            journal = Self.journal(for: plan)
        }
    }

    /// How many mutations have committed through this seam.
    public var mutations: Int { lock.withLock { mutationCount } }

    /// How many times `operation` has been called.
    public func callCount(_ operation: StoreOperation) -> Int { lock.withLock { calls[operation.rawValue, default: 0] } }

    /// Registers a call and says whether the store should be touched.
    public func begin(_ operation: StoreOperation) -> Decision {
        // Held here until the runner grants this step (interleavings); outside the seam's lock.
        gate?.wait(operation)
        return lock.withLock {
            let call = calls[operation.rawValue, default: 0] + 1
            calls[operation.rawValue] = call
            guard let fault = plan.faults.first(where: { $0.operation == operation && $0.call == call }) else {
                return .proceed
            }
            switch fault.action {
            case .status(let status): return .fail(status)
            case .dropWrite: return .pretendSuccess
            }
        }
    }

    /// Records how a call ended. A successful mutating call that touched the store counts as a
    /// mutation; when it is the planned crash point the process ends here (a planned power loss
    /// first takes what it takes, ``PowerLoss``, and logs each loss as a `power.loss` entry).
    public func end(_ operation: StoreOperation, _ subject: SeamSubject, status: Int32, decision: Decision) {
        let (entry, crashHere): (SeamEntry, Bool) = lock.withLock {
            sequence += 1
            let committed = operation.isMutating && status == 0 && decision == .proceed
            var number: Int?
            if committed {
                mutationCount += 1
                number = mutationCount
            }
            let injected: FaultAction? =
                switch decision {
                case .proceed: nil
                case .fail(let status): .status(status)
                case .pretendSuccess: .dropWrite
                }
            let entry = SeamEntry(
                sequence: sequence, operation: operation, subject: subject,
                status: status, mutation: number, injected: injected)
            return (entry, number != nil && number == plan.crashAfterMutation)
        }
        sink?(entry)
        guard crashHere else { return }
        if let lost = powerLoss?.apply() {
            for subject in lost { record(.powerLoss, subject, status: 0) }
        }
        crash(entry.mutation ?? 0)
    }

    /// Records a call that is not the seam's to count or fault (a file call the sandbox refused):
    /// an entry in the log, never a mutation.
    public func record(_ operation: StoreOperation, _ subject: SeamSubject, status: Int32) {
        let entry: SeamEntry = lock.withLock {
            sequence += 1
            return SeamEntry(
                sequence: sequence, operation: operation, subject: subject, status: status, mutation: nil, injected: nil)
        }
        sink?(entry)
    }

    /// Runs one store operation through the seam.
    /// - Parameter body: performs the operation and returns its OSStatus (0 for success). Its own
    ///   file calls are the operation's, not mutations of their own (``ProcessSupervisor``).
    public func perform(_ operation: StoreOperation, _ subject: SeamSubject, _ body: () -> Int32) -> Int32 {
        let decision = begin(operation)
        let status: Int32 =
            switch decision {
            case .proceed: ProcessSupervisor.unsupervised(body)
            case .fail(let injected): injected
            case .pretendSuccess: 0
            }
        end(operation, subject, status: status, decision: decision)
        return status
    }

    /// The exit code a launch reports when it ended at a planned crash point is SIGKILL's; the
    /// mutation log's last line says which point it was.
    public static let killProcess: @Sendable (Int) -> Void = { _ in
        kill(getpid(), SIGKILL)
        _exit(137)
    }
}

/// The launch's mutation log: one JSON object per line, appended with a single `write(2)` so that
/// a line is never lost or torn when the process is killed right after.
public final class MutationLogFile: Sendable {
    private let descriptor: Int32

    /// Opens (creating if needed) the log at `path` for appending; nil when it cannot be opened.
    public init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        // Above the descriptors the file supervisor watches: the log is the runner's, and the
        // supervisor thread itself appends to it.
        descriptor = ProcessSupervisor.reserve(fd)
    }

    deinit { close(descriptor) }

    /// Appends one entry as a line of sorted-key JSON (``SeamEntry/line()``).
    public func append(_ entry: SeamEntry) {
        let line = entry.line()
        line.withUnsafeBytes { buffer in _ = write(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads a mutation log back; lines that do not parse (a torn tail) are skipped.
    public static func read(_ path: String) -> [SeamEntry] {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return [] }
        let lines = data.split(separator: 0x0A)
        let decoder = JSONDecoder()
        // The whole log as one JSON array, one decode (the runner reads a log after every launch);
        // line by line only when a line does not parse.
        var array = Data("[".utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { array.append(0x2C) }
            array.append(contentsOf: line)
        }
        array.append(0x5D)
        if let entries = try? decoder.decode([SeamEntry].self, from: array) { return entries }
        return lines.compactMap { try? decoder.decode(SeamEntry.self, from: Data($0)) }
    }
}

extension SeamEntry {
    /// The entry's line in the mutation log: the bytes `JSONEncoder` writes for it with
    /// `.sortedKeys` and `.withoutEscapingSlashes` (a nil optional left out), and a line break,
    /// written without `JSONEncoder` (its first use cost an app launch several percent,
    /// docs/benchmarks.md). Keys in sorted order by hand: a field added to ``SeamEntry``,
    /// ``SeamSubject`` or ``FaultAction`` must be added here (`MutationLogLineTests` compares with
    /// `JSONEncoder` and counts the stored properties).
    func line() -> [UInt8] {
        var out = JSONOutput(pretty: false)
        out.open(UInt8(ascii: "{"))
        if let injected {
            out.key("injected")
            out.open(UInt8(ascii: "{"))
            switch injected {
            case .status(let status):
                out.field("kind", "status")
                out.field("status", Int(status))
            case .dropWrite:
                out.field("kind", "dropWrite")
            }
            out.close(UInt8(ascii: "}"))
        }
        out.field("mutation", mutation)
        out.field("operation", operation.rawValue)
        out.field("sequence", sequence)
        out.field("status", Int(status))
        out.key("subject")
        out.open(UInt8(ascii: "{"))
        out.field("account", subject.account)
        out.field("name", subject.name)
        out.field("service", subject.service)
        out.field("store", subject.store)
        out.field("target", subject.target)
        out.close(UInt8(ascii: "}"))
        out.close(UInt8(ascii: "}"))
        var line = out.bytes
        line.append(0x0A)
        return line
    }
}
