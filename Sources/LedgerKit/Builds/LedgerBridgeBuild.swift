import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
import LedgerRelease3
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Ledger 3.1 (build 310, schema 4), the bridge release: the last one signed by the old team
/// before the app transfer. v3's launch plus step 3 -> 4, which moves every item out of the old
/// team's access groups into the app group `group.com.example.ledger` (copy, read back, delete the
/// original), where the new team's first release can read it. Every item it writes itself names
/// the app group, so nothing lands in the old team's groups again.
public struct LedgerBridgeBuild: AppBuild {
    public let buildID: String

    /// The bridge release compiled as `buildID`.
    public init(buildID: String = "v3-bridge") { self.buildID = buildID }

    private func parts(_ launch: HarnessLaunch) -> LedgerParts {
        LedgerParts(
            environment: launch.environment, journal: launch,
            vault: GroupMigrationKeychain(accessGroup: LedgerTransfer.bridgeGroup))
    }

    public func launch(_ launch: HarnessLaunch) async {
        let parts = parts(launch)
        // v3's steps, then the move into the shared group.
        let steps = LedgerV3Build().steps(parts) + [MoveAccessGroupStep(from: 3, move: .bridge(journal: launch))]
        await LedgerLaunchSequence.run(launch, parts: parts, targetVersion: LedgerTransfer.bridgeVersion, steps: steps)
    }

    /// The case's data as this build keeps it: v3's items, then moved into the app group.
    public func seed(_ launch: HarnessLaunch) async { await write(launch, malformed: false) }

    public func seedMalformed(_ launch: HarnessLaunch) async { await write(launch, malformed: true) }

    private func write(_ launch: HarnessLaunch, malformed: Bool) async {
        LedgerAutomation.seedKeychain(
            launch, schemaVersion: LedgerTransfer.bridgeVersion,
            deviceKeyAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
            malformed: malformed, migratedAt: launch.environment.now)
        do {
            try AccessGroupMove.bridge(journal: SilentJournal()).run()
        } catch {
            launch.recordError(LedgerTransfer.bridgeGroup, .keychain, "move", error.status)
        }
        LedgerAutomation.finish(launch)
    }

    // v3's verify and cleanup: their reads and deletes reach every group, the app group too.
    public func verify(_ launch: HarnessLaunch) async { await LedgerV3Build(buildID: buildID).verify(launch) }
    public func cleanup(_ launch: HarnessLaunch) async { await LedgerV3Build(buildID: buildID).cleanup(launch) }
}

extension MigrationError {
    /// The OSStatus behind the error (errSecDecode for content that did not read back).
    var status: OSStatus {
        switch self {
        case .keysLeftBehind(_, _, let status), .corruptArchive(let status): status
        case .keychain(let failure): failure.status
        case .readBackMismatch: errSecDecode
        case .file(let error, _): error.code
        }
    }
}
