internal import CFileSupervisor
internal import CSQLite
import FileUtility
import Foundation
import SimRuntime

/// Every file-changing system call a launched app makes, through any API (FileManager, `Data.write`,
/// `UserDefaults`, NSKeyedArchiver, POSIX), numbered by the ``Seam`` with its keychain calls.
///
/// A seccomp filter sends each such call (an open that writes, creates or truncates; write and its
/// family; rename, unlink, mkdir, rmdir, truncate, link, the fsync family) to a thread of the app's
/// own process, which asks the seam, runs the call itself and records it before the caller resumes:
/// so a planned crash point ends the process right after the call, and a fault answers an errno
/// (EIO, ENOSPC, EACCES) or a write that reports success and stores nothing. Calls the seam numbers
/// already (the harness's own store API, the keychain's database, which belongs to securityd) and
/// the harness's own files (the status file, the mutation log) are not reported; a call on a path
/// outside the app's data container and its app groups is refused with EPERM, as the iOS sandbox
/// refuses it, and recorded with the store ``outsideStore``.
///
/// Data protection applies to every open of the app's files, as on iOS: an open of a file whose
/// class (``FileProtection``) the lock state makes unavailable is refused with EPERM (a write open
/// as a failed call in the log, a read open silently), and a file or folder the app creates takes
/// its folder's class. Opens that only read are watched only in a launch that starts with
/// protected data unavailable: during a launch the device only ever becomes unlocked (a prewarmed
/// launch unlocked while it waits), so a launch that starts unlocked can read every file.
/// docs/file-supervision.md has the design and its cost.
public enum FileSupervision {
    /// Why supervision could not start (the kernel refused the filter): the launch must not run
    /// without its file crash points.
    public struct Refused: Error, CustomStringConvertible, Sendable {
        public var reason: String
        public var description: String { "file supervision could not start: \(reason)" }
    }

    /// The store of a recorded call on a path outside the app's container and groups.
    public static let outsideStore = "outside-sandbox"

    /// Whether this process's file calls are supervised.
    public static var isActive: Bool { cfs_active() != 0 }

    /// How many trapped calls the supervisor thread has served in this process so far (0 when
    /// supervision is not active): each one a round trip to that thread.
    public static var notifications: Int { cfs_notifications() }

    /// Starts supervising this process's file calls for the launch `context`, numbered by `seam`.
    /// Call it once, before the app's code runs; later calls do nothing.
    /// - Throws: ``Refused`` when the kernel does not install the filter.
    public static func start(_ context: LaunchContext, seam: Seam) throws(Refused) {
        guard !isActive else { return }
        Supervised.state = Supervised(context: context, seam: seam)
        ProcessSupervisor.install(Self.calls)
        let watchReads = LockStateSource.file(context.lockStatePath).current != .unlocked
        var reason = [CChar](repeating: 0, count: 256)
        let started = reason.withUnsafeMutableBufferPointer { buffer in
            cfs_start(decideCall, recordCall, watchReads ? 1 : 0, buffer.baseAddress, buffer.count)
        }
        guard started == 0 else {
            throw Refused(reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        untrapStoreDatabaseCalls()
    }

    /// The names of SQLite's unix system calls that CFileSupervisor replaces (`cfs_sqlite_syscall`).
    static let sqliteSystemCalls = ["open", "write", "pwrite", "pwrite64", "ftruncate", "unlink", "mkdir", "rmdir"]

    /// Routes SQLite's file-changing system calls through CFileSupervisor's replacements: while a
    /// thread is vouched for (a store operation the seam numbers itself, such as a `SecItem*` call on
    /// the keychain's database), they carry the filter's cookie and cost no notification, where the
    /// supervisor thread would only have let them run after a round trip (about 15 CPU-µs and two
    /// context switches each); otherwise they are SQLite's own calls, trapped as before, so an app's
    /// own database stays supervised. `fsync` and `fdatasync` are not in SQLite's table and stay
    /// trapped. Once a process, before its first database opens.
    static func untrapStoreDatabaseCalls() {
        guard let vfs = sqlite3_vfs_find(nil), vfs.pointee.iVersion >= 3,
            let get = vfs.pointee.xGetSystemCall, let set = vfs.pointee.xSetSystemCall
        else { return }
        for name in sqliteSystemCalls {
            guard let original = get(vfs, name), let replacement = cfs_sqlite_syscall(name, original) else { continue }
            _ = set(vfs, name, replacement)
        }
    }

    /// Runs `body` with the calling thread's file calls unreported: for the harness's own files and
    /// for store operations the seam numbers itself. Nests.
    public static func unsupervised<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        cfs_enter_unsupervised()
        defer { cfs_leave_unsupervised() }
        return try body()
    }

    /// Replaces the file at `path` atomically (a temporary file renamed over it, no sync) with calls
    /// the filter lets through while supervision is active, else with ``AtomicFile/write(_:to:mode:prepare:)``:
    /// for the harness's own files (the status file), which are never reported. Returns 0 or an errno.
    public static func writeOwnFile(_ data: Data, to path: String) -> Int32 {
        guard isActive else { return AtomicFile.write(data, to: path) }
        return data.withUnsafeBytes { cfs_write_file_atomic_own(path, $0.baseAddress, $0.count) }
    }

    /// Removes the file at `path`, a file of the harness's own, with a call the filter lets through while
    /// supervision is active; anything `unlink` cannot remove (a folder) through FileManager, unreported.
    public static func removeOwnFile(_ path: String) {
        if isActive {
            let failure = cfs_unlink_own(path)
            if failure == 0 || failure == ENOENT { return }
        }
        unsupervised { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Moves a descriptor of the runner's own (the mutation log) out of the range the filter
    /// watches; returns the descriptor to use.
    static func reserve(_ descriptor: Int32) -> Int32 { cfs_reserve_fd(descriptor) }

    /// What the seam and a power loss (SimRuntime) use of the supervisor: the untrapped span of a store
    /// operation, and file calls the filter lets through.
    static let calls = ProcessSupervisor.Calls(
        enter: { cfs_enter_unsupervised() }, leave: { cfs_leave_unsupervised() },
        readFile: { path in
            var bytes: UnsafeMutablePointer<UInt8>?
            let count = cfs_read_file_own(path, &bytes)
            guard count >= 0 else { return nil }
            defer { free(bytes) }
            guard let bytes else { return Data() }
            return Data(bytes: bytes, count: count)
        },
        writeFile: { path, data in data.withUnsafeBytes { cfs_write_file_own(path, $0.baseAddress, $0.count) } == 0 },
        unlink: { cfs_unlink_own($0) == 0 })

    /// Where a supervised path belongs.
    enum Place: Equatable {
        /// A file of the app: its data container (`Library/...`) or an app group (`<group id>/...`).
        case app(String)
        /// Not the app's: the keychain database, the runner's own channels.
        case device
        /// Outside the sandbox.
        case outside(String)
    }

    /// The operation the seam numbers for a kind of call.
    static func operation(_ kind: cfs_kind) -> StoreOperation {
        switch kind {
        case CFS_OPEN: .fsOpen
        case CFS_WRITE: .fsWrite
        case CFS_RENAME: .fsRename
        case CFS_UNLINK: .fsUnlink
        case CFS_MKDIR: .fsMkdir
        case CFS_RMDIR: .fsRmdir
        case CFS_TRUNCATE: .fsTruncate
        case CFS_SYNC: .fsSync
        default: .fsLink
        }
    }
}

/// What the supervisor thread reads: set once before the filter is installed, never after.
struct Supervised: @unchecked Sendable {
    nonisolated(unsafe) static var state: Supervised?

    let seam: Seam
    /// Canonical folder path to the name prefix its files are reported with ("" for the data container).
    let roots: [(path: String, prefix: String)]
    /// Canonical paths (and path prefixes) that are the device's, not the app's.
    let devicePaths: [String]
    let lockStatePath: String

    init(context: LaunchContext, seam: Seam) {
        self.seam = seam
        var roots = [(Supervised.canonical(context.dataContainer), "")]
        for (group, path) in context.appGroupContainers.sorted(by: { $0.key < $1.key }) {
            roots.append((Supervised.canonical(path), group + "/"))
        }
        self.roots = roots
        devicePaths = [context.keychainPath, context.lockStatePath, context.mutationLogPath].compactMap { $0 }.map(
            Supervised.canonical)
        lockStatePath = context.lockStatePath
    }

    /// The device's lock state now, read with the supervisor's own calls (a watched open made on
    /// the supervisor thread would wait for that thread). Unreadable reads as locked, as
    /// ``LockStateSource/file(_:)`` does.
    func lockState() -> LockState {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBufferPointer { cfs_read_own(lockStatePath, $0.baseAddress, $0.count) }
        guard length > 0 else { return .locked }
        let text = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return LockState(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .locked
    }

    /// Whether data protection refuses `call`, an open of one of the app's paths, now: an existing
    /// file whose class is unavailable, or a new one whose folder's class cannot be created in.
    func protectionRefuses(_ call: cfs_call) -> Bool {
        let path = String(cString: call.path)
        let protection: FileProtection
        let exists: Bool
        switch call.existed {
        case 1:
            protection = FileProtection.of(path: path)
            exists = true
        case 0 where call.flags & O_CREAT != 0:
            protection = FileProtection.of(path: (path as NSString).deletingLastPathComponent)
            exists = false
        default:
            return false
        }
        guard protection != .none else { return false }
        return call.kind == CFS_READ ? !protection.canRead(lockState()) : !protection.canWrite(lockState(), exists: exists)
    }

    func place(_ path: String) -> FileSupervision.Place {
        if devicePaths.contains(where: { path.hasPrefix($0) }) { return .device }
        for root in roots {
            if path == root.path { return .app(root.prefix.isEmpty ? "." : String(root.prefix.dropLast())) }
            if path.hasPrefix(root.path + "/") {
                return .app(Supervised.stableName(root.prefix + path.dropFirst(root.path.count + 1)))
            }
        }
        return .outside(path)
    }

    /// The name with the random part of a temporary file's name left out, so that the same launch
    /// logs the same names: Foundation's atomic writes go through `.dat.nosyncXXXX.XXXXXX` beside
    /// the file (shown as `.dat.nosync*`).
    static func stableName(_ name: String) -> String {
        let marker = ".dat.nosync"
        guard let range = name.range(of: marker, options: .backwards),
            !name[range.upperBound...].contains("/")
        else { return name }
        return name[..<range.upperBound] + "*"
    }

    /// The path with its folders' symbolic links resolved, as `/proc/self/fd` reports paths.
    static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else {
            // Not there yet (a container made later): resolve the closest existing folder.
            let url = URL(fileURLWithPath: path)
            let parent = url.deletingLastPathComponent().path
            guard parent != path, parent != "/" else { return path }
            return canonical(parent) + "/" + url.lastPathComponent
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// The decision of one call, before it runs (on the supervisor thread).
private let decideCall: cfs_decide_fn = { callPointer, errorPointer in
    guard let call = callPointer?.pointee, let state = Supervised.state, let errorPointer else { return CFS_UNSUPERVISED }
    if call.kind == CFS_READ {
        // A read changes nothing: never a seam call, and outside the app's files never refused.
        guard case .app = state.place(String(cString: call.path)), state.protectionRefuses(call) else { return CFS_UNSUPERVISED }
        errorPointer.pointee = EPERM
        return CFS_FAIL
    }
    if let target = call.path2, case .outside = state.place(String(cString: target)) {
        errorPointer.pointee = EPERM
        return CFS_FAIL
    }
    switch state.place(String(cString: call.path)) {
    case .device:
        return CFS_UNSUPERVISED
    case .outside:
        errorPointer.pointee = EPERM
        return CFS_FAIL
    case .app(let name):
        switch state.seam.begin(FileSupervision.operation(call.kind)) {
        case .proceed where call.kind == CFS_OPEN && state.protectionRefuses(call):
            errorPointer.pointee = EPERM
            return CFS_REFUSE
        case .proceed:
            if let powerLoss = state.seam.powerLoss, call.kind == CFS_WRITE || call.kind == CFS_TRUNCATE {
                powerLoss.willChangeData(of: String(cString: call.path), name: name)
            }
            return CFS_PROCEED
        case .pretendSuccess: return CFS_PRETEND
        case .fail(let code):
            errorPointer.pointee = code
            return CFS_FAIL
        }
    }
}

/// The record of one call, after it ran or was answered, before the caller resumes (on the
/// supervisor thread): the seam's entry, and the end of the process at a planned crash point.
private let recordCall: cfs_done_fn = { callPointer, decision, _, error in
    guard let call = callPointer?.pointee, let state = Supervised.state, call.kind != CFS_READ else { return }
    let operation = FileSupervision.operation(call.kind)
    let target = call.path2.map { state.place(String(cString: $0)) }
    let targetName: String? =
        switch target {
        case .app(let name): name
        case .outside(let path): path
        case .device, nil: nil
        }
    switch state.place(String(cString: call.path)) {
    case .device:
        return
    case .app(let name) where target.map({ if case .outside = $0 { true } else { false } }) ?? false:
        state.seam.record(
            operation, SeamSubject(store: FileSupervision.outsideStore, name: name, target: targetName), status: error)
    case .outside(let path):
        state.seam.record(
            operation, SeamSubject(store: FileSupervision.outsideStore, name: path, target: targetName), status: error)
    case .app(let name):
        if decision == CFS_PROCEED, error == 0, let powerLoss = state.seam.powerLoss {
            powerLoss.record(call, targetName: targetName)
        }
        let seamDecision: Seam.Decision =
            switch decision {
            case CFS_PRETEND: .pretendSuccess
            case CFS_FAIL: .fail(error)
            default: .proceed  // CFS_PROCEED, and CFS_REFUSE: a call that failed as the system failed it
            }
        state.seam.end(
            operation, SeamSubject(store: "file", name: name, target: targetName), status: error, decision: seamDecision)
    }
}

extension PowerLoss {
    /// What a call the supervisor ran for the app, successfully, changed of what a power loss
    /// leaves: an open that created or truncated a file, a truncate, a sync, a rename, a link, a
    /// removal. (A write's data is owed from before the call: ``willChangeData(of:name:)``.)
    fileprivate func record(_ call: cfs_call, targetName: String?) {
        let path = String(cString: call.path)
        let name =
            Supervised.state.flatMap { state -> String? in
                if case .app(let name) = state.place(path) { name } else { nil }
            } ?? path
        switch call.kind {
        case CFS_OPEN where call.existed == 0 && call.flags & O_CREAT != 0,
            CFS_OPEN where call.existed == 1 && call.flags & O_TRUNC != 0:
            created(path, name: name)
        case CFS_TRUNCATE:
            truncated(path, to: call.length)
        case CFS_SYNC where call.flags != CFS_SYNC_RANGE:
            synced(path)
        case CFS_RENAME:
            if let target = call.path2 { renamed(path, to: String(cString: target), name: targetName ?? String(cString: target)) }
        case CFS_LINK:
            if let target = call.path2 { linked(path, to: String(cString: target), name: targetName ?? String(cString: target)) }
        case CFS_UNLINK, CFS_RMDIR:
            removed(path)
        default:
            break
        }
    }
}
