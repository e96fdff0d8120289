import Foundation
@testable import GateExecution
@testable import SimRuntime
import Testing

/// The interleavings scheduler (issue 39) on two stand-in processes: threads that hold at each step
/// through the same step channel a launched app's seam uses. Exactly one moves at a time, the order
/// is the schedule's, and a schedule's id replays it.
@Suite("interleavings scheduler: steps granted one at a time, preemption bound, replay by id")
struct StepSchedulerTests {
    /// Runs two stand-ins of `counts` steps each under `prefix`; returns the trace and the order in
    /// which their steps really ran.
    static func run(_ prefix: [Int], counts: [Int]) throws -> (ScheduleTrace, [Int]) {
        let folder = NSTemporaryDirectory() + "steps-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipes = [try StepPipes(folder: folder, name: "app"), try StepPipes(folder: folder, name: "extension")]
        let order = Order()
        let group = DispatchGroup()
        for process in 0..<2 {
            group.enter()
            let channel = pipes[process].channel
            let pipe = pipes[process]
            Thread.detachNewThread {
                if let gate = StepGate(channel) {
                    for _ in 0..<counts[process] {
                        gate.wait(.secItemAdd)
                        order.append(process)
                    }
                }
                pipe.ended()
                group.leave()
            }
        }
        let trace = StepScheduler.run(prefix, pipes: pipes)
        group.wait()
        return (trace, order.values)
    }

    final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Int] = []
        func append(_ value: Int) { lock.withLock { list.append(value) } }
        var values: [Int] { lock.withLock { list } }
    }

    @Test("without a prefix the app runs to its end, then the extension; the id says so")
    func noPreemption() throws {
        let (trace, order) = try Self.run([], counts: [3, 2])
        #expect(trace.id == "aaaee")
        #expect(order == trace.choices)
        #expect(trace.contested == [true, true, true, false, false])
        #expect(trace.preemptions == 0)
        #expect(trace.operations == Array(repeating: "SecItemAdd", count: 5))
    }

    @Test("a prefix decides the order while it lasts, then the last process goes on; the id replays it exactly")
    func prefixAndReplay() throws {
        let (trace, order) = try Self.run([0, 1, 1, 0], counts: [3, 3])
        #expect(trace.id == "aeeaae")
        #expect(order == trace.choices)
        #expect(trace.preemptions == 2)
        let (again, replayed) = try Self.run(try #require(ScheduleTrace.choices(trace.id)), counts: [3, 3])
        #expect(again == trace)
        #expect(replayed == order)
    }

    @Test("a prefix that names a process that has ended is a diverged run")
    func diverged() throws {
        let (trace, _) = try Self.run([1, 1, 1], counts: [2, 1])
        #expect(trace.diverged)
        #expect(trace.id == "eaa")
    }

    @Test("branches: at each contested step after the prefix, the other process, within the bound")
    func branches() {
        let trace = ScheduleTrace(
            choices: [0, 0, 0, 1, 1], contested: [true, true, true, false, false], operations: [], diverged: false)
        #expect(StepScheduler.branches(of: trace, prefix: 0, bound: 2) == [[1], [0, 1], [0, 0, 1]])
        #expect(StepScheduler.branches(of: trace, prefix: 2, bound: 2) == [[0, 0, 1]])
        // A prefix with two preemptions already branches no further.
        let two = ScheduleTrace(
            choices: [0, 1, 0, 0, 1], contested: [true, true, true, true, false], operations: [], diverged: false)
        #expect(two.preemptions == 2)
        #expect(StepScheduler.branches(of: two, prefix: 3, bound: 2).isEmpty)
        #expect(ScheduleTrace.choices("aex") == nil)
    }
}
