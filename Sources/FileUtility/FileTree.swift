import Foundation

/// A folder's entries, walked with POSIX calls, depth first, each folder's entries in name order.
///
/// The runner walks device folders many times per explored state (to clone a device, snapshot it,
/// digest its state and look for the case's secrets). Foundation's directory enumerator cost a
/// fifth of the runner's CPU there (`perf record` of the default gate: its `nextObject` and the
/// path normalising inside it); this is a `readdir` per folder. Name order, not the file system's
/// order, makes a walk of two folders with the same contents the same walk whatever the order
/// their files were made in, on any file system.
public enum FileTree {
    /// What an entry is (not following symbolic links).
    public enum Kind: Sendable, Equatable {
        case file, directory, symbolicLink, other
        /// A folder that could not be opened: listed, not entered.
        case unreadableDirectory
    }

    /// One entry: its path relative to the walked folder and its kind.
    public struct Entry: Sendable, Equatable {
        public var relative: String
        public var kind: Kind
    }

    /// Every entry under `root` (not `root` itself); the folders named in `pruned` (relative paths)
    /// are listed but not entered. Empty when `root` cannot be read; a sub-folder that cannot be
    /// opened is listed as ``Kind/unreadableDirectory``.
    public static func entries(under root: String, pruning pruned: Set<String> = []) -> [Entry] {
        var found: [Entry] = []
        if let names = names(in: root) { walk(root, names, relative: "", pruned: pruned, into: &found) }
        return found
    }

    /// The regular files under `root`, relative to it, in walk order.
    public static func files(under root: String, pruning pruned: Set<String> = []) -> [String] {
        entries(under: root, pruning: pruned).compactMap { $0.kind == .file ? $0.relative : nil }
    }

    /// Lists `names` (the entries of `folder`) and walks into each sub-folder, reading every folder
    /// once.
    private static func walk(
        _ folder: String, _ names: [(name: String, type: UInt8)], relative: String, pruned: Set<String>,
        into found: inout [Entry]
    ) {
        for (name, type) in names {
            let path = folder + "/" + name
            let entryRelative = relative.isEmpty ? name : relative + "/" + name
            let kind = self.kind(type, path: path)
            guard kind == .directory, !pruned.contains(entryRelative) else {
                found.append(Entry(relative: entryRelative, kind: kind))
                continue
            }
            guard let below = self.names(in: path) else {
                found.append(Entry(relative: entryRelative, kind: .unreadableDirectory))
                continue
            }
            found.append(Entry(relative: entryRelative, kind: .directory))
            walk(path, below, relative: entryRelative, pruned: pruned, into: &found)
        }
    }

    /// The entries of `folder` but `.` and `..`, sorted by their bytes (not by `String`'s
    /// comparison, which takes canonically equal names as equal); nil when it cannot be opened.
    private static func names(in folder: String) -> [(name: String, type: UInt8)]? {
        guard let stream = opendir(folder) else { return nil }
        defer { closedir(stream) }
        var names: [(bytes: [UInt8], type: UInt8)] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafePointer(to: &entry.pointee.d_name) { name in
                name.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: name.pointee)) { start in
                    Array(
                        UnsafeBufferPointer(
                            start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self))))
                }
            }
            if bytes != [0x2E] && bytes != [0x2E, 0x2E] { names.append((bytes, entry.pointee.d_type)) }
        }
        return names.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }.map {
            (String(decoding: $0.bytes, as: UTF8.self), $0.type)
        }
    }

    private static func kind(_ type: UInt8, path: String) -> Kind {
        switch Int32(type) {
        case Int32(DT_REG): return .file
        case Int32(DT_DIR): return .directory
        case Int32(DT_LNK): return .symbolicLink
        case Int32(DT_UNKNOWN):
            var info = stat()
            guard lstat(path, &info) == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file
            case S_IFDIR: return .directory
            case S_IFLNK: return .symbolicLink
            default: return .other
            }
        default: return .other
        }
    }
}
