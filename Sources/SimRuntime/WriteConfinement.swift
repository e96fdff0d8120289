internal import CLaunch
import Foundation

/// Confinement of a process the runner starts to writing beneath given folders (Linux's Landlock),
/// for a launch that may not be an app build (preflight): an app build's own file supervision
/// starts inside it (`Platform.launched()`), so an executable that never starts it is held by this.
public enum WriteConfinement {
    /// Runs `body` on a thread of its own that can write only beneath `folders` (and /dev/null),
    /// as can every process `body` starts; the thread ends with `body`. Nil when the kernel cannot
    /// confine (no Landlock): then `body` is not run, and the caller decides.
    public static func onConfinedThread<Result>(
        writableUnder folders: [String], _ body: @escaping @Sendable () -> Result
    ) -> Result? {
        nonisolated(unsafe) var result: Result?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let paths = folders.map { strdup($0) }
            defer { for path in paths { free(path) } }
            let confined = paths.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
                claunch_confine_writes(buffer.baseAddress, Int32(buffer.count))
            }
            guard confined == 0 else { return }
            result = body()
        }
        thread.start()
        done.wait()
        return result
    }
}
