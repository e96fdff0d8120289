import Foundation

/// The OS lock that gives one run a device to itself.
///
/// It is a `flock(2)` on `<UDID>/device.lock`, so it dies with the process that holds it (a killed
/// run never leaves a device locked) and it also excludes a second holder inside the same process.
/// The holder writes its pid into the file so that the second run's error can name it.
final class DeviceLock: @unchecked Sendable {
    /// The locked descriptor, at 10 or above so that it can never be one of a child's standard
    /// descriptors; -1 once released. Launches hand a copy to the app (see ``Spawner``).
    private(set) var descriptor: Int32

    /// Takes the lock without waiting.
    /// - Throws: ``DeviceError/inUse(udid:pid:)`` when another holder has it.
    init(path: String, udid: String) throws(DeviceError) {
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            throw .notWritable(path, reason: String(cString: strerror(errno)))
        }
        let fd = fcntl(opened, F_DUPFD_CLOEXEC, 10)
        close(opened)
        guard fd >= 0 else { throw .notWritable(path, reason: String(cString: strerror(errno))) }
        var locked = flock(fd, LOCK_EX | LOCK_NB) == 0
        // A lock released a moment ago can still be held by a child that another thread of this
        // process is spawning (it holds copies of every descriptor until its exec closes them), and
        // a launcher that was killed leaves its app holding the lock for the moment the kernel takes
        // to end it (apps die with their launcher). Either holder has emptied the pid file or names
        // a process that is gone: wait for it, for up to two seconds.
        var waited = 0
        while !locked && !DeviceLock.holderIsAlive(DeviceLock.readPID(fd)) && waited < 400 {
            usleep(5_000)
            waited += 1
            locked = flock(fd, LOCK_EX | LOCK_NB) == 0
        }
        guard locked else {
            let holder = DeviceLock.readPID(fd)
            close(fd)
            throw .inUse(udid: udid, pid: DeviceLock.holderIsAlive(holder) ? holder : nil)
        }
        descriptor = fd
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Releases the lock (also done when the value is released or the process ends).
    func release() {
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    private static func holderIsAlive(_ pid: Int32?) -> Bool {
        guard let pid else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}
