import Foundation

/// What this process's file supervisor lends the types below it: the seam's store operations run
/// with the thread's own file calls untrapped, and a power loss reads and rewrites files with calls
/// the supervisor lets through.
///
/// SimRuntime knows no supervisor, so that SimSecurity (which needs the seam, the launch context and
/// the lock state) stands without one: until a supervisor installs its calls (``install(_:)``;
/// SimSupervision's `FileSupervision.start` does, before its first trapped call), a body runs directly
/// and files are read and written with plain calls, which is right in a process nothing traps.
public enum ProcessSupervisor {
    /// The calls a supervisor provides.
    public struct Calls: Sendable {
        /// Marks this thread's file calls as the store operation's own (not trapped) until ``leave``.
        public var enter: @Sendable () -> Void
        /// Ends ``enter``'s span.
        public var leave: @Sendable () -> Void
        /// The whole file at a path, read with a call the supervisor lets through; nil when unreadable.
        public var readFile: @Sendable (String) -> Data?
        /// Replaces a file's bytes with calls the supervisor lets through; false on failure.
        public var writeFile: @Sendable (String, Data) -> Bool
        /// Removes a file with a call the supervisor lets through; false on failure.
        public var unlink: @Sendable (String) -> Bool

        public init(
            enter: @escaping @Sendable () -> Void, leave: @escaping @Sendable () -> Void,
            readFile: @escaping @Sendable (String) -> Data?, writeFile: @escaping @Sendable (String, Data) -> Bool,
            unlink: @escaping @Sendable (String) -> Bool
        ) {
            self.enter = enter
            self.leave = leave
            self.readFile = readFile
            self.writeFile = writeFile
            self.unlink = unlink
        }

        /// A process without a supervisor: plain calls.
        static let plain = Calls(
            enter: {}, leave: {},
            readFile: { FileManager.default.contents(atPath: $0) },
            writeFile: { path, data in FileManager.default.createFile(atPath: path, contents: data) },
            unlink: { Foundation.unlink($0) == 0 })
    }

    /// Descriptors at or above this number are the runner's own channels (the mutation log, the
    /// step channel): a supervisor never traps calls on them. It equals CFileSupervisor's
    /// `CFS_RESERVED_FD_FLOOR` (SimRuntimeTests checks).
    public static let reservedDescriptorFloor: Int32 = 900

    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: Calls = .plain

    /// Installs a supervisor's calls for the rest of the process's life.
    public static func install(_ calls: Calls) { lock.withLock { installed = calls } }

    private static var calls: Calls { lock.withLock { installed } }

    /// Runs `body` with this thread's file calls untrapped: they are the store operation's own.
    public static func unsupervised<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let calls = calls
        calls.enter()
        defer { calls.leave() }
        return try body()
    }

    /// Moves a descriptor of the runner's own out of the range a supervisor watches (close-on-exec)
    /// and closes the original; returns the descriptor to use (`descriptor` when it cannot move).
    public static func reserve(_ descriptor: Int32) -> Int32 {
        let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, reservedDescriptorFloor)
        guard moved >= 0 else { return descriptor }
        close(descriptor)
        return moved
    }

    static func readFile(_ path: String) -> Data? { calls.readFile(path) }
    static func writeFile(_ path: String, _ data: Data) -> Bool { calls.writeFile(path, data) }
    static func unlink(_ path: String) -> Bool { calls.unlink(path) }
}
