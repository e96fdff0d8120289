import FileUtility
import Foundation
import UpgradeContract

/// The gate's SHA-256: SimRuntime's, with the gate's error for a file that cannot be read.
package enum GateHash {
    /// The lower-case hex digest of `bytes`.
    static func hex(_ bytes: Data) -> String { SHA256.hash(bytes).hexDigits }

    /// The lower-case hex digest of the file at `path`.
    /// - Throws: ``GateError/unreadable(path:reason:)``.
    package static func hexOfFile(atPath path: String) throws(GateError) -> String {
        guard let digest = SHA256.hexOfFile(atPath: path) else { throw .unreadable(path: path, reason: "cannot be read") }
        return digest
    }
}

/// `bytes` as lower-case hex.
func lowerHex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 { bytes.hexDigits }
