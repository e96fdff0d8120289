import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

@testable import AppHarness

/// A launch runs on the main thread, without starting a thread, while it never waits; a launch that
/// waits (as a team's app may) still runs to its status file. In process for ``LaunchExecutor``, and
/// as real launches of WaitingApp, whose `main.swift` is `await Harness.main(...)` as every app's.
@Suite struct LaunchExecutorTests {
    /// A task's record of where its parts ran.
    final class Trace: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    @Test("a task that never waits runs to its end on the thread that drains, before drain returns")
    func neverWaitingRunsInline() async {
        let executor = LaunchExecutor()
        let trace = Trace()
        let drainer = pthread_self()
        let task = Task(executorPreference: executor) {
            trace.add("start \(pthread_equal(pthread_self(), drainer) != 0)")
            // Nested async calls and a child task are not waits: they stay on the executor.
            async let child = Self.thread(equalTo: drainer)
            trace.add("child \(await child)")
            trace.add("end \(await Self.thread(equalTo: drainer))")
        }
        executor.drain()
        #expect(trace.all == ["start true", "child true", "end true"])
        await task.value
    }

    @Test("a task that waits: drain returns at the wait, and the task ends with nothing draining it again")
    func waitingHandsOff() async {
        let executor = LaunchExecutor()
        let trace = Trace()
        let parked = ContinuationBox()
        let task = Task(executorPreference: executor) {
            trace.add("before")
            await withCheckedContinuation { parked.set($0) }
            trace.add("after")
        }
        executor.drain()
        #expect(trace.all == ["before"], "drain returned at the wait, not after it")
        parked.resume()
        // Its job after the wait goes to the global executor (which may run it on this pool thread).
        await task.value
        #expect(trace.all == ["before", "after"])
    }

    nonisolated static func thread(equalTo other: pthread_t) async -> Bool { pthread_equal(pthread_self(), other) != 0 }

    /// A continuation parked by a task and resumed by the test, whichever comes first.
    final class ContinuationBox: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?
        private var resumed = false
        func set(_ continuation: CheckedContinuation<Void, Never>) {
            let now = lock.withLock {
                self.continuation = continuation
                return resumed
            }
            if now { continuation.resume() }
        }
        func resume() {
            let parked = lock.withLock {
                resumed = true
                return continuation
            }
            parked?.resume()
        }
    }

    /// Launches WaitingApp's seed hook on a fresh device and returns the launch, its log and the
    /// keychain items it left.
    func seed(waitingFor: String, beforeMain: Bool = false) throws -> (LaunchResult, String, [String]) {
        let directory = try TemporaryDirectory("waiting")
        let device = try DeviceSet(root: directory.file("devices")).create(name: "Waiting Phone")
        try BuildFixture.write(
            in: directory.file("builds"), id: "waiting", bundleID: "com.example.waiting", executable: "WaitingApp")
        let catalog = BuildCatalog(folder: directory.file("builds"), productsFolder: BuiltProducts.directory.path)
        let session = try device.acquire()
        try session.install(try catalog.build("waiting"))
        try session.boot(lockState: .unlocked)
        let log = directory.file("logs/waiting.log")
        let arguments =
            [try #require(LaunchMode.seed.argument), LaunchMode.caseIDArgument, "c1", "-WaitingFor", waitingFor]
            + (beforeMain ? ["-WaitingBeforeMain"] : [])
        // A launch that hangs (a wait the harness never serves) is killed at the launch timeout; the
        // test then fails on it.
        let result = try session.launch("com.example.waiting", LaunchOptions(arguments: arguments, logPath: log))
        let items = try device.keychainItems().compactMap(\.account)
        return (result, try String(contentsOfFile: log, encoding: .utf8), items)
    }

    @Test("a launch that never waits runs its hook on the main thread, and the process starts no thread but the file supervisor")
    func launchWithoutWaits() throws {
        let (result, log, items) = try seed(waitingFor: "none")
        #expect(result.exitedCleanly, "\(result.termination)")
        #expect(log.contains("waited for: nothing\n"))
        // The main thread and the file supervisor's (SimRuntime's FileSupervision, a plain pthread):
        // no libdispatch worker, whose start cost about 1 CPU-ms a launch.
        #expect(log.contains("main thread: true, threads: 2\n"), "\(log)")
        #expect(items == ["after-waits"])
        #expect(result.statusFile != nil)
    }

    @Test(
        "a launch that waits on the main actor (on the main thread, as on iOS), an actor, a sleep, another thread and a yield loop runs to its status file"
    )
    func launchWithWaits() throws {
        let (result, log, items) = try seed(waitingFor: "all")
        #expect(result.exitedCleanly, "\(result.termination)")
        #expect(
            log.contains("waited for: main-actor (on the main thread), actor, sleep, continuation, yield-poll\n"), "\(log)")
        #expect(items == ["after-waits"], "the keychain the harness made current followed the task")
        let status = try #require(result.statusFile)
        #expect(String(decoding: status, as: UTF8.self).contains("after-waits"))
    }

    @Test("a launch whose top-level code waited before calling the harness runs off the main thread, waits and all")
    func launchAfterTopLevelWait() throws {
        let (result, log, items) = try seed(waitingFor: "all", beforeMain: true)
        #expect(result.exitedCleanly, "\(result.termination)")
        #expect(log.contains("waited for: main-actor, actor, sleep, continuation, yield-poll\n"), "\(log)")
        #expect(log.contains("main thread: false"), "\(log)")
        #expect(items == ["after-waits"])
    }

    @Test("drain hands off after its limit: a task that yields forever does not keep the thread")
    func drainLimit() async {
        let executor = LaunchExecutor(inlineLimit: 8)
        let stop = Flag()
        let rounds = Trace()
        let drainer = pthread_self()
        // It stops by itself after 1,000 rounds, so that without the limit this test fails, not hangs.
        // Once handed off, its rounds go on in the pool while this test reads: each says where it ran.
        let task = Task(executorPreference: executor) {
            while !stop.isSet && rounds.all.count < 1000 {
                rounds.add(pthread_equal(pthread_self(), drainer) != 0 ? "inline" : "pool")
                await Task.yield()
            }
        }
        executor.drain()
        let inline = rounds.all.filter { $0 == "inline" }.count
        #expect(inline >= 1 && inline <= 8, "drain returned after the limit's 8 jobs, not after \(inline) rounds")
        stop.set()
        await task.value
    }

    /// A flag one side sets and the other reads.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}
