internal import CFileSupervisor
import Foundation

/// Whether a file or folder is left out of a device's backup: the simulated
/// `NSURLIsExcludedFromBackupKey` (`URLResourceValues.isExcludedFromBackup`), kept as iOS once kept
/// it, in the file's metadata: the extended attribute `user.upgrade-runner.excluded-from-backup`
/// (iOS 5.0.1 used `com.apple.MobileBackup`). It follows the file through renames; a folder that
/// carries it keeps everything below it out too. `device backup` reads it (docs/device.md, "Backup
/// and restore").
public enum BackupExclusion {
    /// The extended attribute's name.
    public static let attribute = "user.upgrade-runner.excluded-from-backup"

    /// Whether the file or folder at `path` is marked excluded from backup.
    public static func isExcluded(atPath path: String) -> Bool {
        cfs_xattr_present(path, attribute) == 1
    }

    /// Marks (or unmarks) the file or folder at `path`; returns 0 or the errno (`EOPNOTSUPP` on a
    /// file system without user extended attributes, `ENOENT` when nothing is there).
    @discardableResult
    public static func set(_ excluded: Bool, atPath path: String) -> Int32 {
        cfs_xattr_flag_set(path, attribute, excluded ? 1 : 0)
    }
}
