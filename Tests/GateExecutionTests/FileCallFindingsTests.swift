import Foundation
@testable import GateExecution
import GateModel
import SimDevice
import SimRuntime
import Testing
import UpgradeContract
import SimSupervision

/// What the gate makes of the app's own file calls (docs/file-supervision.md): they are faulted by
/// write-failure, named in the app's words at a crash point, and a call outside the sandbox is an
/// honest-status problem. On mutation logs made by hand.
@Suite("The app's own file calls in findings")
struct FileCallFindingsTests {
    private func entry(
        _ sequence: Int, _ operation: String, store: String = "file", name: String, target: String? = nil, mutation: Int?
    )
        -> SeamEntry
    {
        var subject: [String: String] = ["store": store, "name": name]
        subject["target"] = target
        var object: [String: Any] = [
            "sequence": sequence, "operation": operation, "subject": subject, "status": mutation == nil ? 1 : 0,
        ]
        object["mutation"] = mutation
        let data = try! JSONSerialization.data(withJSONObject: object)
        return try! JSONDecoder().decode(SeamEntry.self, from: data)
    }

    private func crashed(_ entries: [SeamEntry]) -> LaunchRecord {
        LaunchRecord(
            index: 2, build: "v2", mode: .launch, caseID: "c", runtime: .current, termination: .signaled(SIGKILL),
            endedAtCrashPoint: true, status: nil,
            duration: 0, mutations: entries, deviceDirectory: "")
    }

    private let declarations: CaseDeclarations = {
        let old = BuildDeclaration(secrets: [
            DeclaredItem(
                label: "refreshToken", store: .archive(file: "Library/Application Support/account.archive", keyPath: "refresh"))
        ])
        let new = BuildDeclaration(secrets: [
            DeclaredItem(label: "refreshToken", store: .keychain(KeychainItemDeclaration(service: "mail", account: "refresh")))
        ])
        return CaseDeclarations(caseID: "c", old: old, new: new)
    }()

    @Test("a crash right after the app unlinked the legacy file names the file and the call, as the app made it")
    func unlinkBeforeKeychainWrite() {
        let record = crashed([
            entry(1, "fs.mkdir", name: "Library/Caches", mutation: 1),
            entry(2, "fs.unlink", name: "Library/Application Support/account.archive", mutation: 2),
        ])
        #expect(
            ExplorationInvariants.lossAtCrash("refreshToken", record, declarations)
                == "I1 refreshToken: Library/Application Support/account.archive: unlink (mutation 2) came before any keychain write of refreshToken; a crash there leaves it in neither place"
        )
    }

    @Test("a crash right after another file call names it with its target")
    func renameElsewhere() {
        let record = crashed([
            entry(1, "fs.rename", name: "Documents/.dat.nosync*", target: "Documents/settings.plist", mutation: 1)
        ])
        #expect(
            ExplorationInvariants.lossAtCrash("refreshToken", record, declarations)
                == "I1 refreshToken: in neither the keychain nor a legacy store after a crash right after Documents/.dat.nosync* -> Documents/settings.plist: rename (mutation 1)"
        )
    }

    private func powerLost(_ entries: [SeamEntry]) -> LaunchRecord {
        var record = crashed(entries)
        record.faultPlan = .powerLoss(afterMutation: entries.compactMap(\.mutation).max() ?? 0)
        return record
    }

    private func judge(_ steps: [AttemptRecord.Step]) -> ExplorationAttempt {
        var record = AttemptRecord(id: "power loss 2")
        record.seeded = ["refreshToken"]
        record.steps = steps
        return ExplorationInvariants.judge(record, in: CellContext(declarations: declarations, newBuild: "v2", checkers: []))
    }

    @Test("a power loss right after the app unlinked the legacy file says a power loss, and what it took")
    func powerLossAtUnlink() {
        let record = powerLost([
            entry(1, "preferences.write", store: "preferences", name: "installed", mutation: 1),
            entry(2, "fs.unlink", name: "Library/Application Support/account.archive", mutation: 2),
            entry(3, "power.loss", store: "preferences", name: "installed", mutation: nil),
        ])
        #expect(record.lostToPowerLoss == [SeamSubject(store: "preferences", name: "installed")])
        let attempt = judge([.located(["refreshToken": []], when: "after the power loss", crashed: record)])
        #expect(
            attempt.reasons == [
                "I1 refreshToken: Library/Application Support/account.archive: unlink (mutation 2) came before any keychain write of refreshToken; a power loss there leaves it in neither place; the power loss took the launch's preference sets (installed)"
            ])
        #expect(
            ExplorationAttempt.excerpt(record).last == "02-v2-launch power loss took preferences installed",
            "the power.loss lines are one line after the calls, not calls of their own")
    }

    @Test("a secret lost after recovery is explained by what the power loss took and what the recovery then deleted")
    func powerLossThenSweep() {
        let lost = powerLost([
            entry(1, "preferences.write", store: "preferences", name: "installed", mutation: 1),
            entry(2, "SecItemAdd", store: "genp", name: "x", mutation: 2),
            entry(3, "power.loss", store: "preferences", name: "installed", mutation: nil),
            entry(4, "power.loss", name: "Documents/notes.txt", mutation: nil),
        ])
        var recovery = crashed([entry(1, "SecItemDelete", store: "genp", name: "", mutation: 1)])
        recovery.index = 3
        recovery.termination = .exited(0)
        let attempt = judge([
            .located(["refreshToken": [.keychain]], when: "after the power loss", crashed: lost),
            .launch(recovery, needed: .crashSafe),
            .located(["refreshToken": []], when: "after recovery", crashed: nil),
        ])
        #expect(
            attempt.reasons.contains(
                "I1 refreshToken: in neither the keychain nor a legacy store after recovery; the power loss right after mutation 2 (SecItemAdd genp x) took the launch's preference sets (installed) and the unsynced data of Documents/notes.txt, then 03-v2-launch ran SecItemDelete on genp"
            ), "\(attempt.reasons)")
    }

    @Test("write-failure fails each file call with EIO, ENOSPC and EACCES, never with a lost write")
    func fileFaults() {
        #expect(Explorer.faults(for: .fsWrite) == [.status(EIO), .status(ENOSPC), .status(EACCES)])
        #expect(Explorer.faults(for: .fsUnlink) == [.status(EIO), .status(ENOSPC), .status(EACCES)])
        #expect(Explorer.faults(for: .secItemUpdate) == [.status(-25308), .status(-36), .dropWrite])
        #expect(Explorer.faultable(entry(1, "fs.rename", name: "Documents/a", mutation: 1)))
        #expect(!Explorer.faultable(entry(1, "fs.open", store: FileSupervision.outsideStore, name: "/tmp/x", mutation: nil)))
        #expect(!Explorer.faultable(entry(1, "preferences.write", store: "preferences", name: "k", mutation: 1)))
    }

    @Test("a file call outside the container and groups is an honest-status problem, named from the device's folder")
    func sandbox() {
        let entries = [
            entry(
                1, "fs.open", store: FileSupervision.outsideStore, name: "/devices/D1/data/Containers/Shared/x.plist",
                mutation: nil),
            entry(
                2, "fs.open", store: FileSupervision.outsideStore, name: "/devices/D1/data/Containers/Shared/x.plist",
                mutation: nil),
            entry(3, "fs.unlink", store: FileSupervision.outsideStore, name: "/tmp/cache", mutation: nil),
            entry(4, "fs.unlink", name: "Documents/a", mutation: 1),
        ]
        #expect(
            HonestStatus.sandboxProblems(entries, deviceDirectory: "/devices/D1") == [
                "wrote outside its container and app groups: <device>/data/Containers/Shared/x.plist (fs.open, refused with EPERM as iOS's sandbox refuses it)",
                "wrote outside its container and app groups: /tmp/cache (fs.unlink, refused with EPERM as iOS's sandbox refuses it)",
            ])
    }

    @Test("a preference either build declares as bookkeeping is a marker, not legacy data (malformed-keeps-old leaves it out)")
    func bookkeepingPreference() {
        let old = BuildDeclaration(secrets: [DeclaredItem(label: "token", store: .preference(key: "token", suite: nil))])
        let new = BuildDeclaration(
            secrets: [],
            bookkeeping: [
                DeclaredItem(label: "schema", store: .preference(key: "mail.schema", suite: nil)),
                DeclaredItem(label: "shared", store: .preference(key: "shared.schema", suite: "group.x")),
            ])
        let declarations = CaseDeclarations(caseID: "c", old: old, new: new)
        #expect(declarations.isBookkeepingPreference("mail.schema", suite: nil))
        #expect(!declarations.isBookkeepingPreference("token", suite: nil))
        // A group's marker is its group's: the same key in the app's own domain, or another group's, is not.
        #expect(declarations.isBookkeepingPreference("shared.schema", suite: "group.x"))
        #expect(!declarations.isBookkeepingPreference("shared.schema", suite: nil))
        #expect(!declarations.isBookkeepingPreference("mail.schema", suite: "group.x"))
    }
}
