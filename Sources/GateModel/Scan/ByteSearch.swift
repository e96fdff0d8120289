internal import CScan
import Foundation

/// A search for bytes in bytes, in C.
package enum ByteSearch {
    /// Whether `bytes` hold `form` anywhere, as `bytes.range(of: form) != nil` answers: with
    /// `memmem` (CScan). Foundation's search in a debug build cost the runner about 1% of its CPU:
    /// the runner looks for each secret in every file of an app's containers after most launches
    /// (``SecretLocator``).
    package static func holds(_ bytes: Data, _ form: Data) -> Bool {
        guard !form.isEmpty else { return bytes.range(of: form) != nil }
        return bytes.withUnsafeBytes { haystack in
            form.withUnsafeBytes { needle in
                guard let haystackBase = haystack.baseAddress, let needleBase = needle.baseAddress else { return false }
                return cscan_contains(haystackBase, haystack.count, needleBase, needle.count)
            }
        }
    }
}
