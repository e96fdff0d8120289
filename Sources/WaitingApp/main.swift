// WaitingApp: an app build whose hooks wait as a team's app may, for the harness's tests.
//
// The harness runs a launch on the main thread for as long as it never waits (`LaunchExecutor`);
// a launch that does wait must still run to its status file. `-WaitingFor none` waits for nothing;
// `-WaitingFor all` hops to the main actor, to an actor of its own, sleeps, waits on a
// continuation another thread resumes, and polls with `Task.yield()` for a main-actor task to run.
// Either way the seed hook then adds one keychain item (the keychain the harness made current must
// follow the task to whichever thread it is on) and logs where it ran: whether on the main thread,
// and how many threads the process had then. `-WaitingBeforeMain` makes the top-level code wait
// before it calls the harness, so that the call comes off the main thread.
import AppHarness
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// A flag a main-actor task sets and a polling loop reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// An actor of the build's own, as app code keeps state in.
actor Counter {
    private var count = 0
    func increment() -> Int {
        count += 1
        return count
    }
}

struct WaitingBuild: AppBuild {
    let buildID = "waiting"

    /// Waits as `-WaitingFor` asks, and returns the names of the waits done.
    func wait(_ launch: HarnessLaunch) async -> [String] {
        guard launch.environment.argument(after: "-WaitingFor") == "all" else { return [] }
        let mainActorOnMainThread = await MainActor.run { Thread.isMainThread }
        _ = await Counter().increment()
        try? await Task.sleep(nanoseconds: 1_000_000)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread { continuation.resume() }.start()
        }
        let flag = Flag()
        Task { @MainActor in flag.set() }
        while !flag.isSet { await Task.yield() }
        return [
            "main-actor\(mainActorOnMainThread ? " (on the main thread)" : "")", "actor", "sleep", "continuation", "yield-poll",
        ]
    }

    func seed(_ launch: HarnessLaunch) async {
        let waits = await wait(launch)
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: "waiting", kSecAttrAccount: "after-waits",
            kSecValueData: Data("waited".utf8),
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        launch.record("after-waits", .keychain, "SecItemAdd", status, status == errSecSuccess ? .written : .missing)
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        print("waited for: \(waits.isEmpty ? "nothing" : waits.joined(separator: ", "))")
        print("main thread: \(Thread.isMainThread), threads: \(threads)")
        fflush(nil)
    }
    func seedMalformed(_ launch: HarnessLaunch) async { await seed(launch) }
    func verify(_ launch: HarnessLaunch) async { _ = await wait(launch) }
    func cleanup(_ launch: HarnessLaunch) async { _ = await wait(launch) }
    func launch(_ launch: HarnessLaunch) async { _ = await wait(launch) }
}

if CommandLine.arguments.contains("-WaitingBeforeMain") { try? await Task.sleep(nanoseconds: 1000) }
await Harness.main(WaitingBuild())
