import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// write-failure: each keychain write and each file call of the new build's first launch fails in
/// turn (an error status or errno, or for a keychain write a reported success that stored nothing), then the app is
/// relaunched and verified (crash-safe, reads-old-data).
enum WriteFailureSteps: ScenarioSteps {
    static let moments: Set<Moment> = []

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.explore(&evidence) { $0.writeFailures() }
    }
}

extension Explorer {
    /// The k-th keychain write call of the new build's first launch answers
    /// errSecInteractionNotAllowed, errSecIO (or errSecDuplicateItem for an add), or reports
    /// success while storing nothing; the k-th file call of the app's own (``StoreOperation/isFileSystemCall``,
    /// through any API: docs/file-supervision.md) answers EIO, ENOSPC or EACCES. Then the app is
    /// relaunched without faults and verified.
    ///
    /// As with crash points, no state is recovered from twice: an attempt whose failed write left
    /// the device as an earlier attempt's did (the same ``ScenarioDevice/stateFingerprint()``) is
    /// judged on its own faulted launch and recorded as covered by that attempt for the rest.
    func writeFailures() -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        var calls: [StoreOperation: Int] = [:]
        // Fingerprint of a state after a failed write -> the attempt that recovered from it.
        var explored: [String: String] = [:]
        var attempts = [
            attempt("baseline", template) { device, record in
                let first = try device.launch(new, .launch)
                for entry in first.mutations where Self.faultable(entry) {
                    calls[entry.operation, default: 0] += 1
                }
                guard record.needs(first), record.plans(first) else { return }
                try recovered(device, recovery: first, &record)
            }
        ]
        for operation in calls.keys.sorted() {
            for k in 1...calls[operation]! {
                for action in Self.faults(for: operation) {
                    let label =
                        switch action {
                        case .status(let status) where operation.isFileSystemCall: Self.errnoNames[status] ?? "errno \(status)"
                        case .status(let status): "\(SecurityStatus(status).name ?? "\(status)")"
                        case .dropWrite: "lost write"
                        }
                    attempts.append(
                        attempt("\(operation.rawValue) \(k) \(label)", template) { device, record in
                            let faulted = try device.launch(
                                new, .launch, faultPlan: FaultPlan(faults: [Fault(operation, call: k, action)]))
                            record.log = ExplorationAttempt.excerpt(faulted)
                            guard record.needs(faulted) else { return }
                            // One read of the keychain serves I1 and the fingerprint.
                            let keychain = try device.keychainItems()
                            try locate(device, when: "after the failed write", &record, keychain: keychain)
                            guard try claim(device, keychain: keychain, explored: &explored, &record) else { return }
                            let recovery = try device.launch(new, .launch)
                            guard record.needs(recovery) else { return }
                            try recovered(device, recovery: recovery, &record)
                        })
                }
            }
        }
        ExplorationAttempt.inheritCoverage(&attempts)
        let total = attempts.count - 1
        let covered = attempts.filter { $0.coveredBy != nil }.count
        let kinds = calls.keys.sorted()
        func summary(_ operations: [StoreOperation]) -> String {
            operations.map { "\($0.rawValue) x\(calls[$0]!)" }.joined(separator: ", ")
        }
        let files = kinds.filter(\.isFileSystemCall)
        let written =
            "keychain writes \(summary(kinds.filter { !$0.isFileSystemCall }))"
            + (files.isEmpty ? "" : "; file calls \(summary(files))")
        return (
            attempts,
            "first launch of \(new.manifest.id): \(written); \(total) faults injected; \(explored.count) distinct states after a failed write, \(covered) attempts covered by an equal state; \(template.launches) launches"
        )
    }

    /// Whether write-failure fails this call of the first launch: a keychain write, or a file call
    /// of the app's own in its container or groups (the seam counts those calls, so the fault plan
    /// can name the k-th).
    static func faultable(_ entry: SeamEntry) -> Bool {
        (entry.operation.isKeychain && entry.operation.isMutating)
            || (entry.operation.isFileSystemCall && entry.subject.store == "file")
    }

    /// The faults each call takes in turn: what iOS can answer it. A file call fails with an errno;
    /// it is never a lost write: a write the kernel accepted is read back from the page cache until
    /// the device loses power, and after an fsync even then (docs/file-supervision.md, "What each
    /// store can lose").
    static func faults(for operation: StoreOperation) -> [FaultAction] {
        if operation.isFileSystemCall { return [.status(EIO), .status(ENOSPC), .status(EACCES)] }
        var actions: [FaultAction] = [.status(errSecInteractionNotAllowed), .status(errSecIO), .dropWrite]
        if operation == .secItemAdd { actions.insert(.status(errSecDuplicateItem), at: 2) }
        return actions
    }

    static let errnoNames: [Int32: String] = [EIO: "EIO", ENOSPC: "ENOSPC", EACCES: "EACCES"]
}
