import Foundation
import SimDevice
import SimRuntime
import Testing

/// Injected keychain faults over the new build's first launch, through real launches: a failed or
/// lost write never costs the legacy copy, and the next launch finishes the migration.
@Suite struct FaultTests {
    @Test(
        "a failed or lost write keeps the preference and the version; the relaunch migrates",
        arguments: [
            FaultAction.status(-25308), .status(-36), .dropWrite,
        ])
    func writeFailureKeepsSource(_ action: FaultAction) throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        try device.install("v2")
        let faulted = try device.launch(.launch, faultPlan: FaultPlan(faults: [Fault(.secItemAdd, call: 1, action)]))
        #expect(faulted.migration?.state == .failed)
        #expect(faulted.legacy?.preferenceKeys.contains("authToken") == true, "the first key keeps its source")
        #expect(faulted.schemaVersion == nil)
        if action == .dropWrite {
            #expect(faulted.result("authToken", "keychain") == "mismatch", "the read-back caught the lost write")
        }
        #expect(try device.launch(.launch).migration == MigrationOutcome(state: .migrated, from: 0, to: 2))
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"])
    }

    @Test("killed after each store mutation of the first v2 launch, the relaunch recovers every secret")
    func crashPoints() throws {
        let probe = try LedgerDevice()
        try probe.install("v1")
        try probe.launch(.seed)
        try probe.install("v2")
        try probe.launch(.launch)
        let mutations = probe.session.device.layout.logsDirectory + "/\(LedgerDevice.bundleID).mutations.jsonl"
        let count = MutationLogFile.read(mutations).compactMap(\.mutation).count
        #expect(count >= 8)
        for point in 1...count {
            let device = try LedgerDevice()
            try device.install("v1")
            try device.launch(.seed)
            try device.install("v2")
            let killed = try device.session.launch(
                LedgerDevice.bundleID,
                LaunchOptions(
                    arguments: ["-UITestCaseID", device.caseID], faultPlan: FaultPlan(crashAfterMutation: point)))
            #expect(killed.endedAtCrashPoint, "crash point \(point)")
            #expect(try device.launch(.launch).migration?.state != .failed, "crash point \(point)")
            #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"], "crash point \(point)")
        }
    }
}
