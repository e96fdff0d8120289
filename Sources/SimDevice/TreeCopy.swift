import FileUtility
import Foundation

/// A copy of a folder's tree, entry by entry in ``FileTree`` order, as a device clone, a backup
/// and a restore each make one: folders made, files copied by their bytes (``FileCopy``),
/// symbolic links made again, anything else left out. What differs between them is the caller's:
/// which entries to leave out or hard-link, and what to do once an entry is in place (its data
/// protection class, its mode).
enum TreeCopy {
    /// What to do with one entry.
    enum Choice {
        case copy
        /// Not copied; under a folder left out, nothing is entered.
        case leaveOut
        /// A file hard-linked instead of copied (the same inode: its metadata comes with it, and
        /// `placed` is not called), else copied when the link cannot be made.
        case link
    }

    /// Copies the tree under `source` into `destination` (which exists). `pruned` folders are
    /// listed but not entered; `choose` decides each entry; `placed` runs after a folder or file is
    /// in place, with its source and copy paths.
    /// - Throws: a ``DeviceError`` naming the path that could not be listed, made or copied.
    static func copy(
        from source: String, to destination: String, pruning pruned: Set<String> = [], folderMode: mode_t = 0o777,
        choose: (FileTree.Entry) throws(DeviceError) -> Choice = { _ in .copy },
        placed: (FileTree.Entry, _ from: String, _ to: String) throws(DeviceError) -> Void = { _, _, _ in }
    ) throws(DeviceError) {
        var leftOutFolders: [String] = []
        for entry in FileTree.entries(under: source, pruning: pruned) {
            if leftOutFolders.contains(where: { entry.relative.hasPrefix($0 + "/") }) { continue }
            let choice = try choose(entry)
            if choice == .leaveOut {
                if entry.kind == .directory { leftOutFolders.append(entry.relative) }
                continue
            }
            let from = source + "/" + entry.relative, to = destination + "/" + entry.relative
            switch entry.kind {
            case .directory:
                guard mkdir(to, folderMode) == 0 || errno == EEXIST else { throw failure(to, "cannot make the folder") }
            case .file:
                if choice == .link, link(from, to) == 0 { continue }
                guard FileCopy.copy(from: from, to: to) != nil else { throw failure(to, "cannot copy the file") }
            case .symbolicLink:
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: from), symlink(target, to) == 0
                else { throw failure(to, "cannot copy the symbolic link") }
                continue
            case .unreadableDirectory:
                throw failure(from, "cannot list the folder")
            case .other:
                continue
            }
            try placed(entry, from, to)
        }
    }

    private static func failure(_ path: String, _ what: String) -> DeviceError {
        .fileSystem(path, reason: "\(what) (\(FileFailure.posix(errno)))")
    }
}
