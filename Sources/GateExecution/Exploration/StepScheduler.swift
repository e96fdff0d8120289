import Foundation
import SimDevice
import SimRuntime

/// One process's ``StepChannel`` on the runner's side (interleavings): two FIFOs beside the device,
/// both held open read-write by the runner for the launch's life, so that neither end ever waits
/// for the other to open, and removed when the launch has ended.
package final class StepPipes: @unchecked Sendable {
    package let channel: StepChannel
    private let grant: Int32
    private let report: Int32

    /// Makes the FIFOs `<folder>/<name>.grant` and `<folder>/<name>.report` and opens them.
    package init(folder: String, name: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        channel = StepChannel(grantPath: folder + "/" + name + ".grant", reportPath: folder + "/" + name + ".report")
        var opened: [Int32] = []
        for path in [channel.grantPath, channel.reportPath] {
            unlink(path)
            guard mkfifo(path, 0o600) == 0 else {
                for descriptor in opened { close(descriptor) }
                throw DeviceError.fileSystem(path, reason: "cannot make the step channel (errno \(errno))")
            }
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else {
                for descriptor in opened { close(descriptor) }
                throw DeviceError.fileSystem(path, reason: "cannot open the step channel (errno \(errno))")
            }
            opened.append(descriptor)
        }
        grant = opened[0]
        report = opened[1]
    }

    deinit {
        close(grant)
        close(report)
        unlink(channel.grantPath)
        unlink(channel.reportPath)
    }

    /// The line the runner writes into the report FIFO once the process has been reaped.
    static let endedLine = "!ended"

    /// Lets the process run its next store operation.
    func grantStep() {
        var byte: UInt8 = 0x67
        while write(grant, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Says the process has ended (from the thread that reaped it).
    package func ended() {
        var line = Array((Self.endedLine + "\n").utf8)
        _ = line.withUnsafeMutableBytes { write(report, $0.baseAddress, $0.count) }
    }

    /// Waits for the process's next report: the operation it is held at, or nil once it has ended.
    func next() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(report, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        let line = String(decoding: bytes, as: UTF8.self)
        return line == Self.endedLine ? nil : line
    }
}

/// The order in which the runner let two processes' store operations go (interleavings): one
/// choice per step, `a` the app, `e` the extension. A schedule's id is its choices, so the id of
/// a schedule that ran is the whole order and replays it exactly (``StepScheduler/run(_:pipes:)``
/// with the id as its prefix).
package struct ScheduleTrace: Sendable, Equatable {
    /// The process that ran each step: 0 the app, 1 the extension.
    package var choices: [Int] = []
    /// Whether both processes were held, waiting, when each step was chosen (a real choice).
    var contested: [Bool] = []
    /// The operation each step ran, as the process reported it.
    var operations: [String] = []
    /// The prefix named a process that had already ended: the run is not the schedule asked for.
    package var diverged = false

    static let letters: [Character] = ["a", "e"]

    package init(choices: [Int] = [], contested: [Bool] = [], operations: [String] = [], diverged: Bool = false) {
        self.choices = choices
        self.contested = contested
        self.operations = operations
        self.diverged = diverged
    }

    package var id: String { String(choices.map { Self.letters[$0] }) }

    /// The choices of a schedule id; nil when it has a letter other than `a` and `e`.
    package static func choices(_ id: String) -> [Int]? {
        var choices: [Int] = []
        for letter in id {
            guard let index = letters.firstIndex(of: letter) else { return nil }
            choices.append(index)
        }
        return choices
    }

    /// How many times the order switched away from a process that could have gone on.
    static func preemptions(_ choices: [Int], contested: [Bool]) -> Int {
        var count = 0
        for index in choices.indices.dropFirst() where contested[index] && choices[index] != choices[index - 1] {
            count += 1
        }
        return count
    }

    package var preemptions: Int { Self.preemptions(choices, contested: contested) }

    /// How many steps each process ran.
    var steps: [Int] { [choices.filter { $0 == 0 }.count, choices.filter { $0 == 1 }.count] }
}

/// Grants the steps of two processes started together, one at a time (docs/gate.md, "The
/// interleavings scheduler"): a step is one store operation the seam numbers (a keychain call, a
/// supervised file call of the app's own) with the process's own code up to its next one. Each
/// process is held before each of its operations; the scheduler waits for both to be held (or
/// ended), picks one, grants it one step and waits for it to be held again or end, so that exactly
/// one process moves at a time and the order of their operations is the schedule's.
package enum StepScheduler {
    /// Runs the processes of `pipes` (0 the app, 1 the extension) following `prefix` while it lasts;
    /// after it, the process that ran last goes on while it can, then the other (no further
    /// preemption). With no prefix the app goes first.
    package static func run(_ prefix: [Int], pipes: [StepPipes]) -> ScheduleTrace {
        var trace = ScheduleTrace()
        var held: [String?] = pipes.map { $0.next() }
        while true {
            let waiting = held.indices.filter { held[$0] != nil }
            guard let first = waiting.first else { break }
            let step = trace.choices.count
            var choice: Int
            if step < prefix.count {
                choice = prefix[step]
                if !waiting.contains(choice) {
                    trace.diverged = true
                    choice = first
                }
            } else if let last = trace.choices.last, waiting.contains(last) {
                choice = last
            } else {
                choice = first
            }
            trace.choices.append(choice)
            trace.contested.append(waiting.count > 1)
            trace.operations.append(held[choice] ?? "")
            pipes[choice].grantStep()
            held[choice] = pipes[choice].next()
        }
        return trace
    }

    /// The schedules a run `trace` (made from `prefix`) leads to: at each contested step at or after
    /// the prefix, the other process instead, as long as the prefix stays within `bound` preemptions.
    /// Each schedule within the bound is reached once, from the run of its longest explored prefix.
    static func branches(of trace: ScheduleTrace, prefix: Int, bound: Int) -> [[Int]] {
        var result: [[Int]] = []
        for index in trace.choices.indices where index >= prefix && trace.contested[index] {
            let alternative = Array(trace.choices[..<index]) + [1 - trace.choices[index]]
            let contested = Array(trace.contested[...index])
            if ScheduleTrace.preemptions(alternative, contested: contested) <= bound { result.append(alternative) }
        }
        return result
    }
}
