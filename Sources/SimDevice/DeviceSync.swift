import FileUtility
import Foundation
import SimRuntime
import SimSecurity

/// What a keychain sync between two devices of one user did (``DeviceSession/syncKeychain(with:)``):
/// counts only, never a value.
public struct KeychainSync: Equatable, Sendable {
    /// The two devices, the one the sync starts from first.
    public var udids: [String]
    /// Whether it was the pair's first sync (no state in common: a union, no deletes travel).
    public var first: Bool
    /// Only passwords travelled: one of the devices runs iOS before 14.
    public var passwordsOnly: Bool
    public var outcome: KeychainSyncOutcome
}

/// `keychain-sync/<peer udid>.json` in a device folder: what the device and that peer agreed on
/// at their last sync. Identity and content digests keyed with the pair's key (kept beside them, as
/// the keychain file itself is beside it: the folder holds the secrets anyway); never a value.
struct KeychainSyncRecord: Codable, Equatable {
    static let formatVersion = 1
    var formatVersion: Int
    var peer: String
    /// The pair's digest key, hex (32 random bytes, made at their first sync).
    var key: String
    var state: KeychainSyncState

    static func path(_ layout: DeviceLayout, peer: String) -> String { layout.keychainSyncDirectory + "/" + peer + ".json" }

    static func read(_ layout: DeviceLayout, peer: String) -> KeychainSyncRecord? {
        guard let data = FileManager.default.contents(atPath: path(layout, peer: peer)),
            let record = try? JSONDecoder().decode(KeychainSyncRecord.self, from: data),
            record.formatVersion == formatVersion, record.peer == peer
        else { return nil }
        return record
    }

    func write(_ layout: DeviceLayout) throws(DeviceError) {
        let folder = layout.keychainSyncDirectory
        let file = Self.path(layout, peer: peer)
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let failure = AtomicFile.write(try encoder.encode(self), to: file, mode: 0o600)
            if failure != 0 { throw DeviceError.fileSystem(file, reason: "cannot write (\(FileFailure.posix(failure)))") }
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .fileSystem(file, reason: "cannot write (\(error))")
        }
    }
}

extension DeviceSession {
    /// iCloud Keychain between this device and `other`, two devices of one user (the caller says
    /// they are: nothing on a device names its user): every synchronizable item that travels goes
    /// both ways, its adds, changes and deletes since the pair's last sync, as
    /// ``Keychain/synchronize(with:since:passwordsOnly:digest:)`` says (docs/simsecurity.md, rows
    /// 54-57; docs/device.md, "A second device"). Apps, files, preferences and every other item stay.
    /// Both sessions hold their devices, so no app of either runs meanwhile. Each keychain changes in
    /// one transaction; the pair's state (`keychain-sync/<peer>.json` on both) is written only after
    /// both committed. `history.jsonl` of each gains a `keychain-sync` event.
    /// - Throws: ``DeviceError/syncRefused(udid:reason:)`` for the device itself (bad input),
    ///   ``DeviceError/fileSystem(_:reason:)`` when a keychain cannot be opened or changed.
    @discardableResult
    public func syncKeychain(with other: DeviceSession) throws(DeviceError) -> KeychainSync {
        guard other.udid != udid else {
            throw .syncRefused(udid: udid, reason: "a device syncs with another device of its user, not with itself")
        }
        let mine = KeychainSyncRecord.read(layout, peer: other.udid)
        let theirs = KeychainSyncRecord.read(other.layout, peer: udid)
        // A state both sides hold alike is the base; else the pair starts again (a union).
        let base = mine.flatMap { mine in theirs.map { ($0.key, $0.state) == (mine.key, mine.state) } == true ? mine : nil }
        let key = base?.key ?? Self.randomKeyHex()
        let keyBytes = Data(hexString: key) ?? Data()
        let passwordsOnly = min(record.runtime.major, other.record.runtime.major) < 14
        let outcome: KeychainSyncOutcome
        do {
            let here = try device.openKeychain()
            let there = try other.device.openKeychain()
            outcome = try here.synchronize(with: there, since: base?.state, passwordsOnly: passwordsOnly) {
                HMACSHA256.authenticationCode(for: $0, key: keyBytes).hexDigits
            }
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .fileSystem(layout.keychainPath, reason: "cannot sync the keychain with device \(other.udid) (\(error))")
        }
        try KeychainSyncRecord(formatVersion: KeychainSyncRecord.formatVersion, peer: other.udid, key: key, state: outcome.state)
            .write(layout)
        try KeychainSyncRecord(formatVersion: KeychainSyncRecord.formatVersion, peer: udid, key: key, state: outcome.state)
            .write(other.layout)
        HistoryEvent.append(HistoryEvent(event: "keychain-sync", clock: record.clock), to: layout)
        HistoryEvent.append(HistoryEvent(event: "keychain-sync", clock: other.record.clock), to: other.layout)
        return KeychainSync(udids: [udid, other.udid], first: base == nil, passwordsOnly: passwordsOnly, outcome: outcome)
    }

    private static func randomKeyHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

extension Data {
    fileprivate init?(hexString: String) {
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2, limitedBy: hexString.endIndex) ?? hexString.endIndex
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
