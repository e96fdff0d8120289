import Foundation

/// `rm -rf` of one folder through its descriptors: each folder opened once, its entries read with
/// `readdir` and removed with `unlinkat`, without a `stat` of each entry or a path built for it.
///
/// A gate deletes a device for every exploration attempt (hundreds a run, a few hundred files
/// each); Foundation's `removeItem` looked at every entry and built its path before removing it, a
/// few percent of the runner's CPU. Symbolic links are removed, never followed.
public enum TreeRemoval {
    /// Removes `path` and everything under it. 0, or the errno of the first entry that could not be
    /// removed (what follows it is still tried).
    public static func remove(_ path: String) -> Int32 {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            // Not a folder (or a link to one): the entry itself.
            if errno == ENOTDIR || errno == ELOOP { return unlink(path) == 0 ? 0 : errno }
            return errno
        }
        let inside = removeContents(folder)
        guard rmdir(path) == 0 else { return inside != 0 ? inside : errno }
        return inside
    }

    /// Removes everything in the folder open as `folder`, and closes it.
    private static func removeContents(_ folder: Int32) -> Int32 {
        guard let stream = fdopendir(folder) else {
            let failure = errno
            close(folder)
            return failure
        }
        defer { closedir(stream) }
        // The names first: a folder's listing is not changed while it is read.
        var entries: [(name: [CChar], type: UInt8)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) { start in
                    Array(UnsafeBufferPointer(start: start, count: strlen(start) + 1))
                }
            }
            if name == [0x2E, 0] || name == [0x2E, 0x2E, 0] { continue }
            entries.append((name, entry.pointee.d_type))
        }
        var failure: Int32 = 0
        for (name, type) in entries {
            var isFolder = Int32(type) == Int32(DT_DIR)
            if Int32(type) == Int32(DT_UNKNOWN) {
                var info = stat()
                isFolder = fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            if isFolder {
                let below = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if below >= 0 {
                    let inside = removeContents(below)
                    if failure == 0 { failure = inside }
                }
                if unlinkat(folder, name, AT_REMOVEDIR) != 0, failure == 0 { failure = errno }
            } else if unlinkat(folder, name, 0) != 0, failure == 0 {
                failure = errno
            }
        }
        return failure
    }
}
