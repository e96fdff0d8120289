import Foundation
import SimRuntime
import TestSupport
import Testing
@testable import SimSecurity

/// Collects the seam's entries in memory.
final class EntryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [SeamEntry] = []
    var entries: [SeamEntry] { lock.withLock { stored } }
    func append(_ entry: SeamEntry) { lock.withLock { stored.append(entry) } }
}

/// Collects numbers from another closure.
final class Numbers: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    var values: [Int] { lock.withLock { stored } }
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
}

@Suite("The seam: counting, logging, faults and crash points")
struct SeamTests {
    private func keychain(
        plan: FaultPlan = .none, log: EntryLog = EntryLog(),
        crashed: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> Keychain {
        makeKeychain(seam: Seam(plan: plan, sink: { log.append($0) }, crash: crashed))
    }

    @Test("every call is logged with its operation, names and status; only committed writes count as mutations")
    func countsAndLogs() {
        let log = EntryLog()
        let keychain = keychain(log: log)
        #expect(keychain.add(password("a", [kSecValueData: Data("top-secret-value")])) == errSecSuccess)
        #expect(keychain.add(password("a")) == errSecDuplicateItem)
        #expect(keychain.copy(password("a", [kSecReturnData: true])).status == errSecSuccess)
        #expect(keychain.update(password("a"), [kSecValueData: Data("x")]) == errSecSuccess)
        #expect(keychain.delete(password("a")) == errSecSuccess)
        let entries = log.entries
        #expect(entries.map(\.operation) == [.secItemAdd, .secItemAdd, .secItemCopyMatching, .secItemUpdate, .secItemDelete])
        #expect(entries.map(\.status) == [0, errSecDuplicateItem, 0, 0, 0])
        #expect(entries.map(\.mutation) == [1, nil, nil, 2, 3])
        #expect(entries.allSatisfy { $0.subject == SeamSubject(store: "genp", service: "svc", account: "a") })
        #expect(keychain.configuration.seam.mutations == 3)
        let encoded = String(decoding: try! JSONEncoder().encode(entries), as: UTF8.self)
        #expect(!encoded.contains("top-secret-value"))
    }

    @Test(
        "the k-th call of an operation answers the planned OSStatus and leaves the store untouched",
        arguments: [errSecInteractionNotAllowed, errSecIO, errSecDuplicateItem])
    func injectedStatus(_ status: OSStatus) {
        let log = EntryLog()
        let keychain = keychain(plan: FaultPlan(faults: [Fault(.secItemAdd, call: 2, .status(status))]), log: log)
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.add(password("b")) == status)
        #expect(keychain.add(password("c")) == errSecSuccess)
        #expect(keychain.copy(password("b")).status == errSecItemNotFound)
        #expect(log.entries[1].injected == .status(status))
        #expect(log.entries[1].mutation == nil)
    }

    @Test("a dropped write reports success and stores nothing")
    func droppedWrite() {
        let keychain = keychain(plan: FaultPlan(faults: [Fault(.secItemAdd, call: 1, .dropWrite)]))
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        #expect(keychain.copy(password("a")).status == errSecItemNotFound)
        #expect(keychain.configuration.seam.mutations == 0)
    }

    @Test("the crash point fires right after the k-th mutation commits, not before")
    func crashPoint() {
        let fired = Numbers()
        let log = EntryLog()
        let keychain = keychain(plan: FaultPlan(crashAfterMutation: 2), log: log, crashed: { fired.append($0) })
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(fired.values.isEmpty)
        #expect(keychain.copy(password("a")).status == errSecSuccess)  // a read is no mutation
        #expect(keychain.add(password("b")) == errSecSuccess)
        #expect(fired.values == [2])
        // The item of the crashing call is already committed when the crash happens.
        #expect(log.entries.last?.mutation == 2)
        #expect(keychain.copy(password("b")).status == errSecSuccess)
    }

    @Test("a plan can be replaced in-process while call counts are kept")
    func replacePlan() {
        let keychain = keychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        keychain.configuration.seam.setPlan(FaultPlan(faults: [Fault(.secItemAdd, call: 2, .status(errSecIO))]))
        #expect(keychain.add(password("b")) == errSecIO)
    }

    @Test("a launched process reads its plan from the environment and is killed right after the k-th mutation")
    func crashFromEnvironment() throws {
        let tmp = try TemporaryDirectory()
        let database = tmp.file("keychain.db")
        let logPath = tmp.file("mutations.jsonl")
        let context = LaunchContext(
            udid: "TEST", deviceDirectory: tmp.path, bundleID: "com.example.writer", identity: .testHost,
            runtime: .current, keychainPath: database, dataContainer: tmp.path, appGroupContainers: [:],
            lockStatePath: tmp.file("lockstate"), clock: Date(timeIntervalSince1970: 0), arguments: [],
            faultPlan: FaultPlan(faults: [Fault(.secItemAdd, call: 2, .dropWrite)], crashAfterMutation: 3),
            mutationLogPath: logPath)
        let run = try runTool(
            "keychain-writer", [database, "10"], environment: [LaunchContext.environmentKey: try context.encoded()])
        #expect(run.signal == SIGKILL)
        // Calls 1..4 returned success (call 2 was dropped), the 4th call was the 3rd mutation.
        #expect(run.stdout.split(separator: "\n") == ["item-0", "item-1", "item-2"])
        let entries = MutationLogFile.read(logPath)
        #expect(entries.map { $0.mutation } == [1, nil, 2, 3])
        #expect(entries.count == 4 && entries[1].injected == FaultAction.dropWrite)
        let keychain = makeKeychain(path: database)
        let accounts = try keychain.dump().compactMap(\.account)
        #expect(accounts == ["item-0", "item-2", "item-3"])
    }
}
