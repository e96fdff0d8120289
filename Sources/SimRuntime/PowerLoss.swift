import Foundation

/// What a device power loss takes from a launch: recorded as the launch goes, taken at the planned
/// point (``FaultPlan/powerLoss``) right before the process ends.
///
/// The model is what iOS can lose at that moment (docs/file-supervision.md, "Power loss"):
/// - **Preferences.** A set reaches cfprefsd at once, which writes the domain's plist later, as a
///   whole. The model takes the worst moment: cfprefsd wrote none of the launch's sets, so every
///   preferences plist the launch wrote goes back to what it held before the launch's first write
///   of it (removed when the launch created it).
/// - **Files.** The file system keeps its metadata in call order (creations, names, renames,
///   links, removals, folders, truncations: journaled, as APFS and ext4 keep them), and a file's
///   data as of its last `fsync` or `fdatasync`. Data written since is lost: the file holds what
///   it held at its last sync, or before the launch's first write (empty when the launch created or
///   truncated it). Foundation's `Data.write` syncs before it returns (and `.atomic` before its
///   rename), so what it wrote stays; a bare `write(2)` does not. `sync_file_range` makes nothing
///   durable.
/// - **Keychain.** securityd commits each call: nothing is lost.
///
/// Files are followed by path (a rename moves what is owed to the new name); a file with two hard
/// links is followed by the name it was written through.
public final class PowerLoss: @unchecked Sendable {
    private let lock = NSLock()
    /// Each preferences plist the launch wrote, as it was before the first write (nil: absent).
    private var preferenceFiles: [String: Data?] = [:]
    /// Each app file whose data changed since its last sync: its name in the app's words and the
    /// data a power loss leaves it.
    private var unsynced: [String: (name: String, durable: Data)] = [:]

    package init() {}

    /// Keeps what the preferences plist at `path` holds before the launch's first write of it.
    /// ``Preferences`` calls it before each write.
    public func willWritePreferences(at path: String) {
        let key = Self.key(path)
        lock.withLock {
            guard !preferenceFiles.keys.contains(key) else { return }
            preferenceFiles.updateValue(Self.read(key), forKey: key)
        }
    }

    // MARK: The app's file calls (FileSupervision, around each call it runs)

    /// Before a call that changes the data of the file at `path` (a write, a truncate): what a
    /// power loss leaves it, unless the launch already changed it since its last sync.
    package func willChangeData(of path: String, name: String) {
        let key = Self.key(path)
        lock.withLock {
            guard unsynced[key] == nil else { return }
            unsynced[key] = (name, Self.read(key) ?? Data())
        }
    }

    /// A file the call created, or truncated on opening: its name survives, its data does not.
    package func created(_ path: String, name: String) {
        let key = Self.key(path)
        lock.withLock { unsynced[key] = (name, Data()) }
    }

    /// A truncate to `length`: the metadata survives, so what the file keeps is cut (or zero-extended) to it.
    package func truncated(_ path: String, to length: Int) {
        let key = Self.key(path)
        lock.withLock {
            guard var entry = unsynced[key], length >= 0 else { return }
            if entry.durable.count > length {
                entry.durable = entry.durable.prefix(length)
            } else {
                entry.durable.append(Data(count: length - entry.durable.count))
            }
            unsynced[key] = entry
        }
    }

    /// An fsync or fdatasync: the file's data as it is now survives.
    package func synced(_ path: String) {
        let key = Self.key(path)
        lock.withLock { _ = unsynced.removeValue(forKey: key) }
    }

    /// A rename (of a file or a folder): what was owed to `source` (and below it) is now owed to
    /// `target`, whose own file is gone.
    package func renamed(_ source: String, to target: String, name: String) {
        let from = Self.key(source), to = Self.key(target)
        lock.withLock {
            forget(to)
            for (key, entry) in unsynced where key == from || key.hasPrefix(from + "/") {
                unsynced.removeValue(forKey: key)
                let rest = String(key.dropFirst(from.count))
                unsynced[to + rest] = (name + rest, entry.durable)
            }
        }
    }

    /// A hard link: the new name shares the file, and what it keeps.
    package func linked(_ source: String, to target: String, name: String) {
        let from = Self.key(source), to = Self.key(target)
        lock.withLock {
            if let entry = unsynced[from] { unsynced[to] = (name, entry.durable) }
        }
    }

    /// An unlink or rmdir: nothing is owed to the name any more.
    package func removed(_ path: String) {
        let key = Self.key(path)
        lock.withLock { forget(key) }
    }

    private func forget(_ key: String) {
        for known in unsynced.keys where known == key || known.hasPrefix(key + "/") { unsynced.removeValue(forKey: known) }
    }

    // MARK: The power loss

    /// Takes what the power loss takes: each file back to its durable data, each preferences plist
    /// back to what it held before the launch. Returns what was lost, names only: a file whose data
    /// differed (store `file`, its name), a preference key whose value differed (store
    /// `preferences`), in name order.
    package func apply() -> [SeamSubject] {
        lock.withLock {
            var lost: [SeamSubject] = []
            for (path, entry) in unsynced.sorted(by: { $0.key < $1.key }) {
                var status = stat()
                guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
                guard Self.read(path) != entry.durable else { continue }
                _ = ProcessSupervisor.writeFile(path, entry.durable)
                lost.append(SeamSubject(store: "file", name: entry.name))
            }
            var keys: [String] = []
            for (path, original) in preferenceFiles.sorted(by: { $0.key < $1.key }) {
                let now = Self.read(path)
                guard now != original else { continue }
                keys += Self.changedKeys(Self.domain(original), Self.domain(now))
                if let original {
                    _ = ProcessSupervisor.writeFile(path, original)
                } else {
                    _ = ProcessSupervisor.unlink(path)
                }
            }
            return keys.sorted().map { SeamSubject(store: "preferences", name: $0) }
                + lost.sorted { ($0.name ?? "") < ($1.name ?? "") }
        }
    }

    // MARK: Helpers

    /// The whole file at `path`, read with the supervisor's own calls (a watched open made on the
    /// supervisor thread would wait for itself); nil when it cannot be read.
    private static func read(_ path: String) -> Data? { ProcessSupervisor.readFile(path) }

    /// The path with its folder's symbolic links resolved: the supervisor names a descriptor's file
    /// by `/proc/self/fd`, which resolves them, and a path call by the path the app gave.
    private static func key(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base == "/" ? "" : base) + "/" + (path as NSString).lastPathComponent
    }

    private static func domain(_ data: Data?) -> [String: Any] {
        guard let data else { return [:] }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] ?? [:]
    }

    /// The keys whose value differs between two domains (set, changed or removed).
    private static func changedKeys(_ before: [String: Any], _ after: [String: Any]) -> [String] {
        func encoded(_ value: Any?) -> Data? {
            value.flatMap { try? PropertyListSerialization.data(fromPropertyList: [$0], format: .binary, options: 0) }
        }
        return Set(before.keys).union(after.keys).filter { encoded(before[$0]) != encoded(after[$0]) }.sorted()
    }
}
