import Foundation
import SimSecurity

extension DeviceSession {
    /// The user turns the passcode off (Settings, Face ID & Passcode): the device has no passcode,
    /// and iOS deletes every item of class WhenPasscodeSetThisDeviceOnly (`akpu`), of every app
    /// ("Disabling the device passcode causes all items in this class to be deleted",
    /// kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly); while there is none, adding such an item
    /// answers errSecAuthFailed (docs/simsecurity.md, row 40). Nothing else changes.
    /// - Returns: how many items were deleted.
    @discardableResult
    public func removePasscode() throws(DeviceError) -> Int {
        let removed = try deleteKeychainItems(what: "the WhenPasscodeSetThisDeviceOnly items") {
            $0.accessible == "akpu"
        }
        try update { $0.passcodeSet = false }
        HistoryEvent.append(HistoryEvent(event: "passcode-removed", clock: record.clock), to: layout)
        return removed
    }

    /// The user sets a passcode again: WhenPasscodeSetThisDeviceOnly items can be added again (the
    /// ones deleted when it was turned off do not come back).
    public func setPasscode() throws(DeviceError) {
        try update { $0.passcodeSet = true }
        HistoryEvent.append(HistoryEvent(event: "passcode-set", clock: record.clock), to: layout)
    }

    /// The biometric enrollment changes (a finger added or removed for Touch ID, Face ID enrolled
    /// again): the enrollment generation moves, and every item whose access control holds
    /// `.biometryCurrentSet` (without a passcode alternative) is invalidated: a read of its secret
    /// answers errSecAuthFailed from then on (docs/simsecurity.md, row 53). Items stay in the store.
    /// - Returns: the new generation.
    @discardableResult
    public func changeBiometry() throws(DeviceError) -> Int {
        let next = record.currentBiometryGeneration + 1
        try update { $0.biometryGeneration = next }
        HistoryEvent.append(HistoryEvent(event: "biometry-changed", clock: record.clock), to: layout)
        return next
    }

    private func deleteKeychainItems(
        what: String, where remove: (KeychainItemRecord) -> Bool
    ) throws(DeviceError) -> Int {
        guard FileManager.default.fileExists(atPath: layout.keychainPath) else { return 0 }
        let keychain = try device.openKeychain()
        do {
            return try keychain.deleteItems(where: remove)
        } catch {
            throw .fileSystem(layout.keychainPath, reason: "cannot delete \(what) (\(error))")
        }
    }
}
