import Foundation
import SimDevice

/// SIGINT and SIGTERM end the runner with exit code 3 (UNKNOWN): the artifacts on disk already say
/// UNKNOWN until the run completes. The signal handler only writes the signal number to a pipe; a
/// thread waiting on the pipe removes the run's temporary devices (their keychains hold the case's
/// secrets in the clear) and exits, outside the signal handler.
package enum InterruptHandling {
    nonisolated(unsafe) private static var pipeEnds: [Int32] = [-1, -1]
    private static let state = NSLock()
    nonisolated(unsafe) private static var interrupting = false

    /// Blocks for good while an interrupt is being handled: the handler ends the process with exit
    /// code 3 once the apps are stopped and the devices removed, and the run must not end first
    /// with its own exit code while that removal is under way.
    package static func waitIfInterrupted() {
        guard state.withLock({ interrupting }) else { return }
        while true { pause() }
    }

    private static let installed: Void = {
        guard pipe(&pipeEnds) == 0 else { return }
        let reader = pipeEnds[0]
        let thread = Thread {
            var received: Int32 = 0
            while read(reader, &received, MemoryLayout<Int32>.size) < 0 && errno == EINTR {}
            state.withLock { interrupting = true }
            LaunchedProcesses.stopAll()
            usleep(20_000)  // the kernel tears the killed apps down; none writes after this
            TemporaryDevices.removeAll()
            let message = "upgrade-runner: interrupted by signal \(received); the verdict is UNKNOWN\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            _exit(3)
        }
        thread.start()
        // A parent may have started us with these signals blocked (Foundation's Process does, from
        // some threads); a blocked SIGTERM would stay pending while the run went on to a verdict.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { received in
                var number = received
                _ = write(InterruptHandling.pipeEnds[1], &number, MemoryLayout<Int32>.size)
            }
        }
    }()

    package static func install() { installed }
}
