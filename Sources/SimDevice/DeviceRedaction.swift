import Foundation
import SimRuntime
import SimSecurity

/// The one way a device's values are shown anywhere outside it (`keychain dump`, the gate's device
/// snapshots): as HMAC-SHA256 under the device's own random key (`digest.key` in its folder, 0600),
/// never the value nor an unkeyed hash of it. Two views of one device compare equal exactly when
/// the values are equal; a digest tells nothing to whoever lacks the device's key.
public struct DeviceRedaction: Sendable {
    private let key: Data

    /// The redaction of `device`, under its digest key.
    /// - Throws: ``DeviceError/malformedFile(_:reason:)`` when the device has no valid key.
    public init(_ device: Device) throws(DeviceError) {
        key = try device.digestKey()
    }

    /// The keyed digest of `value`, in lowercase hex.
    public func digest(_ value: Data) -> String {
        HMACSHA256.authenticationCode(for: value, key: key).hexDigits
    }

    /// The keychain attributes that may hold a value rather than a name: shown only as a digest.
    private static let valueAttributes: Set<String> = ["v_Data", "data", "gena"]

    /// `record`'s attributes but those in `leaving`, each value attribute as its digest (prefixed
    /// with `prefix`) and every other as stored.
    public func attributes(
        of record: KeychainItemRecord, leaving columns: Set<String> = [], prefix: String = ""
    ) -> [String: String] {
        var shown: [String: String] = [:]
        for (name, value) in record.attributes where !columns.contains(name) {
            shown[name] = Self.valueAttributes.contains(name) ? prefix + digest(Data(value.utf8)) : value
        }
        return shown
    }
}
