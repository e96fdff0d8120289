import Dispatch
import Foundation

/// Runs a launch's task on the thread that started it, until the task first waits for something
/// that only another thread or the main queue can give it; from then on, on the global executor.
///
/// A build's hooks are `async`, and an async top-level `main` would hop to the global executor at
/// its first call: libdispatch then starts three threads (a worker, its manager, and a second
/// worker its pool monitor adds while the first is busy) and the main thread exits by unwinding.
/// That is about 1 CPU-ms of every launch (docs/benchmarks.md, "Statically linked app builds"), and the sample
/// builds never wait: each store call is synchronous, as `SecItem*` is. So ``Harness/main(_:)``
/// prefers this executor for the launch's task and drains it inline. A build that does wait (a
/// `Task.sleep`, a `MainActor` hop, an async API) is served as on iOS: ``drain()`` returns when
/// nothing is left to run, every job enqueued after that goes to the global executor, and the main
/// thread serves the main queue (`Harness.serveMainQueue`). While the launch runs inline the main
/// queue is not served, as on iOS while the main thread is busy: a hook that blocks on the main
/// queue (`DispatchQueue.main.sync`) deadlocks there too.
///
/// ``drain()`` also hands off after ``inlineLimit`` jobs: a task that polls with `Task.yield()`
/// for work of the main actor re-enqueues itself here, and would otherwise never let the main
/// queue run. A launch that never waits runs a handful of jobs.
final class LaunchExecutor: TaskExecutor, @unchecked Sendable {
    private let lock = NSLock()
    /// The jobs waiting to run inline, oldest first.
    private var pending: [UnownedJob] = []
    /// Whether ``drain()`` has finished, so jobs go to the global executor.
    private var handedOff = false
    /// How many jobs ``drain()`` runs inline at most.
    let inlineLimit: Int

    init(inlineLimit: Int = 1024) { self.inlineLimit = inlineLimit }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let inline = lock.withLock {
            if !handedOff { pending.append(job) }
            return !handedOff
        }
        if !inline { toGlobal(job) }
    }

    /// Runs the pending jobs on this thread, and those they enqueue, until none is left or
    /// ``inlineLimit`` have run; then hands the rest, and every later job, to the global executor.
    func drain() {
        var ran = 0
        while ran < inlineLimit, let job = lock.withLock({ pending.isEmpty ? nil : pending.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
            ran += 1
        }
        // What the limit left, and any job enqueued since the last look; none is added after this.
        let left = lock.withLock { () -> [UnownedJob] in
            handedOff = true
            defer { pending.removeAll() }
            return pending
        }
        for job in left { toGlobal(job) }
    }

    private func toGlobal(_ job: UnownedJob) {
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
