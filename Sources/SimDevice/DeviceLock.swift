import Foundation

/// The OS lock that gives one run a device to itself.
///
/// It is a `flock(2)` on `<UDID>/device.lock`, so it dies with the process that holds it (a killed
/// run never leaves a device locked) and it also excludes a second holder inside the same process.
/// The holder writes its pid into the file so that the second run's error can name it.
final class DeviceLock: @unchecked Sendable {
    private var descriptor: Int32

    /// Takes the lock without waiting.
    /// - Throws: ``DeviceError/inUse(udid:pid:)`` when another holder has it.
    init(path: String, udid: String) throws(DeviceError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .notWritable(path, reason: String(cString: strerror(errno)))
        }
        var locked = flock(fd, LOCK_EX | LOCK_NB) == 0
        // A lock released a moment ago can still be held by a child that another thread of this
        // process is spawning (it holds copies of every descriptor until its exec closes them).
        // Such a holder has already emptied the pid file: wait for it, briefly.
        var waited = 0
        while !locked && DeviceLock.readPID(fd) == nil && waited < 100 {
            usleep(5_000)
            waited += 1
            locked = flock(fd, LOCK_EX | LOCK_NB) == 0
        }
        guard locked else {
            let holder = DeviceLock.readPID(fd)
            close(fd)
            throw .inUse(udid: udid, pid: holder)
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

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}
