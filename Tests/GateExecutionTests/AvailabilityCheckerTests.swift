import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import Testing
import UpgradeContract

/// keeps-availability, the malformed matrix and the reinstall's hard items, judged on evidence made
/// by hand: each failure mode fails, and the evidence the checks had before them would pass.
@Suite("keeps-availability, malformed matrix and reinstall sweep on hand-made evidence")
struct AvailabilityCheckerTests {
    private static let path = BuildPair(old: "v1", new: "v2")

    private func evidence(_ scenario: Scenario) -> CellEvidence {
        var evidence = CellEvidence(unit: PlanUnit(path: Self.path, scenario: scenario), runtime: .current, caseID: "c")
        evidence.declarations = .sample
        evidence.seeded = ["authToken", "deviceKey"]
        return evidence
    }

    private func launch(
        _ index: Int, _ build: String = "v2", _ mode: LaunchMode = .verify, _ results: [(String, ItemResult)] = [],
        errors: [String] = []
    ) -> LaunchRecord {
        func check(_ name: String, _ result: ItemResult, _ status: Int32) -> ItemCheck {
            ItemCheck(
                name: name, location: .keychain, operation: "SecItemCopyMatching", status: status, runtime: "iOS 17.5",
                result: result)
        }
        let items = results.map { check($0.0, $0.1, $0.1 == .locked ? -25308 : $0.1 == .missing ? -25300 : 0) }
        return LaunchRecord(
            index: index, build: build, mode: mode, caseID: "c", runtime: .current, termination: .exited(0),
            endedAtCrashPoint: false,
            status: LaunchStatus(
                build: build, mode: mode, caseID: "c", runtime: "iOS 17.5", items: items,
                errors: errors.map { check($0, .failed, -67853) }),
            duration: 0, mutations: [], deviceDirectory: "")
    }

    private static let afterFirstUnlock: Set<LockState> = [.unlocked, .locked]

    /// A locked-reads cell: `authToken` kept after first unlock before, `deviceKey` when unlocked only.
    private func lockedReads(newAuthToken: Set<LockState>, lockedRead: ItemResult) -> CellEvidence {
        var cell = evidence(.lockedReads)
        var facts = LockedReadsFacts(availability: [
            AvailabilityFact(
                label: "authToken",
                old: SecretPlace(description: "preference authToken", states: Self.afterFirstUnlock, protection: .file(.default)),
                new: SecretPlace(
                    description: "keychain genp svc/authToken", states: newAuthToken,
                    protection: .keychain(accessible: "cku", synchronizable: false))),
            AvailabilityFact(
                label: "deviceKey",
                old: SecretPlace(
                    description: "keychain genp svc/deviceKey (ak)", states: [.unlocked],
                    protection: .keychain(accessible: "ak", synchronizable: false)),
                new: SecretPlace(
                    description: "keychain genp svc/deviceKey (ak)", states: [.unlocked],
                    protection: .keychain(accessible: "ak", synchronizable: false))),
        ])
        cell.launches = [
            launch(1, "v1", .seed, [("authToken", .written), ("deviceKey", .written)]),
            launch(2, "v2", .launch),
            launch(3, "v2", .verify, [("authToken", lockedRead), ("deviceKey", .locked)]),
            launch(4, "v2", .verify, [("authToken", .locked), ("deviceKey", .locked)]),
        ]
        facts.lockStates = [3: .locked, 4: .beforeFirstUnlock]
        cell.facts = .lockedReads(facts)
        return cell
    }

    @Test("the lock states of seed 000's table: WhenUnlocked, AfterFirstUnlock and Always classes; files; preferences")
    func table() {
        #expect(LockAvailability.states(keychain: "ak") == [.unlocked])
        #expect(LockAvailability.states(keychain: "akpu") == [.unlocked])
        #expect(LockAvailability.states(keychain: "cku") == Self.afterFirstUnlock)
        #expect(LockAvailability.states(keychain: "ck") == Self.afterFirstUnlock)
        #expect(LockAvailability.states(keychain: "dku") == [.unlocked, .locked, .beforeFirstUnlock])
        #expect(LockAvailability.states(file: .complete) == [.unlocked])
        #expect(LockAvailability.states(file: .default) == Self.afterFirstUnlock)
        #expect(LockAvailability.states(file: .none).count == 3)
    }

    @Test(
        "keeps-availability passes when every secret stays readable where it was; a WhenUnlocked one need not read while locked")
    func availabilityKept() {
        let findings = KeepsAvailability.check(lockedReads(newAuthToken: Self.afterFirstUnlock, lockedRead: .found))
        #expect(findings.map(\.verdict) == [.pass], "\(findings.map(\.message))")
    }

    @Test("keeps-availability fails a secret moved from after-first-unlock preferences into a WhenUnlocked item")
    func availabilityNarrowed() {
        let findings = KeepsAvailability.check(lockedReads(newAuthToken: [.unlocked], lockedRead: .locked))
        #expect(findings.map(\.verdict) == [.fail, .fail])
        #expect(findings.allSatisfy { $0.item == "authToken" })
        #expect(findings.contains { $0.message.contains("no longer readable locked after first unlock") })
        #expect(findings.contains { $0.message.contains("read back as locked") && $0.status == -25308 })
    }

    @Test("keeps-availability fails a locked read that the device's pdmn says should succeed (the app's word is checked too)")
    func lockedReadFails() {
        let findings = KeepsAvailability.check(lockedReads(newAuthToken: Self.afterFirstUnlock, lockedRead: .missing))
        #expect(findings.map(\.verdict) == [.fail] && findings.first?.message.contains("03-v2-verify") == true)
    }

    @Test("keeps-availability fails a secret not found where the new build declares it, and is UNKNOWN without locked launches")
    func missingAndUnreached() {
        var cell = lockedReads(newAuthToken: Self.afterFirstUnlock, lockedRead: .found)
        var facts = try! #require(cell.lockedReads)
        facts.availability[0].new = nil
        cell.facts = .lockedReads(facts)
        #expect(KeepsAvailability.check(cell).contains { $0.verdict == .fail && $0.item == "authToken" })
        facts.lockStates = [:]
        cell.facts = .lockedReads(facts)
        #expect(KeepsAvailability.check(cell).map(\.verdict) == [.unknown])
    }

    @Test(
        "keeps-availability judges access control with the class: a token now behind .biometryCurrentSet fails for background launches and for locked ones"
    )
    func accessControlNarrowed() throws {
        var cell = lockedReads(newAuthToken: Self.afterFirstUnlock, lockedRead: .locked)
        var facts = try #require(cell.lockedReads)
        facts.availability[0].new = SecretPlace(
            description: "keychain genp svc/authToken (cku, access control .biometryCurrentSet)", states: [.unlocked],
            protection: .keychain(accessible: "cku", synchronizable: false), needsUser: true)
        cell.facts = .lockedReads(facts)
        let findings = KeepsAvailability.check(cell)
        #expect(findings.allSatisfy { $0.verdict == .fail && $0.item == "authToken" })
        #expect(findings.contains { $0.message.contains("no longer readable in a background launch") })
        #expect(findings.contains { $0.message.contains("no longer readable locked after first unlock") })
        // An old place that already needed the user is no background loss.
        facts.availability[0].old?.needsUser = true
        cell.facts = .lockedReads(facts)
        #expect(!KeepsAvailability.check(cell).contains { $0.message.contains("background launch") })
    }

    @Test("a dump's access control text tells whether the item needs the user")
    func accessControlNeeds() {
        func item(_ accc: String?) -> String? { accc }
        #expect(!AccessControlNeeds(accessControl: item(nil)).needsUser)
        #expect(!AccessControlNeeds(accessControl: item("cku;flags=0")).needsUser)
        #expect(AccessControlNeeds(accessControl: item("cku;flags=8")).needsUser)
        #expect(AccessControlNeeds(accessControl: item("cku;flags=8")).description == ", access control .biometryCurrentSet")
        #expect(AccessControlNeeds(accessControl: item("aku;flags=16385")).description == ", access control .userPresence")
        #expect(!AccessControlNeeds(accessControl: item("aku;flags=1073741824")).needsUser)
    }

    // MARK: The malformed matrix

    private func item(
        _ account: String, digest: String, group: String = "T.app", sync: Bool = false, itemClass: String = "genp"
    )
        -> DeviceSnapshot.Item
    {
        DeviceSnapshot.Item(
            itemClass: itemClass, accessGroup: group, service: "svc", account: account, accessible: "cku",
            synchronizable: sync, digest: digest)
    }

    /// A malformed cell whose all-at-once part passes, with one matrix attempt for `authToken`.
    private func malformed(
        keptDigest: String, launchResults: [(String, ItemResult)], verifyResults: [(String, ItemResult)]
    ) -> CellEvidence {
        var cell = evidence(.malformed)
        let seeded = DeviceSnapshot(
            keychain: [item("authToken", digest: "bad"), item("deviceKey", digest: "k")], preferences: [:], files: [:])
        cell.snapshots = [.afterSeed: seeded, .afterFirstLaunch: seeded]
        cell.launches = [
            launch(1, "v1", .seedMalformed, [("authToken", .written), ("deviceKey", .written)]),
            launch(2, "v2", .launch, [("authToken", .mismatch)]), launch(3, "v2", .verify, [("authToken", .mismatch)]),
        ]
        var attempt = MalformedAttempt(label: "authToken", seeded: ["authToken", "deviceKey"])
        attempt.afterSeed = seeded
        attempt.afterFirstLaunch = DeviceSnapshot(
            keychain: [item("authToken", digest: keptDigest), item("deviceKey", digest: "k")], preferences: [:], files: [:])
        attempt.launches = [
            launch(1, "v1", .seedMalformed, [("authToken", .written), ("deviceKey", .written)]),
            launch(2, "v2", .launch, launchResults), launch(3, "v2", .verify, verifyResults),
        ]
        cell.facts = .malformed([attempt])
        return cell
    }

    /// A malformed cell that passes: its matrix attempt kept and reported authToken, and deviceKey read back.
    private var passingMalformed: CellEvidence {
        malformed(
            keptDigest: "bad", launchResults: [("authToken", .mismatch)],
            verifyResults: [("authToken", .mismatch), ("deviceKey", .found)])
    }

    @Test("malformed-keeps-old passes an attempt whose malformed store is kept and reported while the others read back")
    func matrixPasses() {
        let cell = passingMalformed
        #expect(MalformedKeepsOld.check(cell).map(\.verdict) == [.pass])
    }

    @Test("malformed-keeps-old judges content, not identity: a renamed item with the same bytes is kept, a dropped one is not")
    func malformedContent() {
        var cell = passingMalformed
        cell.facts = .malformed([])
        // Read old, add new under another account and class, delete old: the bytes are still in the keychain.
        let renamed = item("authToken-v2", digest: "bad", itemClass: "inet")
        cell.snapshots[.afterFirstLaunch] = DeviceSnapshot(
            keychain: [renamed, item("deviceKey", digest: "k")], preferences: [:], files: [:])
        #expect(MalformedKeepsOld.check(cell).map(\.verdict) == [.pass])
        cell.snapshots[.afterFirstLaunch] = DeviceSnapshot(
            keychain: [item("deviceKey", digest: "k")], preferences: [:], files: [:])
        let dropped = MalformedKeepsOld.check(cell)
        #expect(dropped.map(\.verdict) == [.fail] && dropped[0].message.contains("legacy keychain item deleted"))
    }

    @Test("malformed-keeps-old judges secrets that share one file together: one report for the file, the others read back")
    func malformedSharedFile() {
        var cell = passingMalformed
        var attempt = cell.malformedAttempts[0]
        attempt.labels = ["authToken", "refreshToken"]
        attempt.seeded = ["authToken", "deviceKey", "refreshToken"]
        cell.facts = .malformed([attempt])
        // refreshToken, in authToken's file, is malformed with it: not required to read back.
        #expect(MalformedKeepsOld.check(cell).map(\.verdict) == [.pass])
        #expect(MalformedKeepsOld.check(cell)[0].message.contains("(authToken+refreshToken)"))
        attempt.launches[1] = launch(2, "v2", .launch, [("refreshToken", .failed)])
        attempt.launches[2] = launch(3, "v2", .verify, [("deviceKey", .missing)])
        cell.facts = .malformed([attempt])
        let findings = MalformedKeepsOld.check(cell)
        #expect(findings.map(\.item) == ["authToken, refreshToken alone"])
        #expect(
            findings[0].message.contains("the valid deviceKey read back as missing with authToken, refreshToken alone malformed"))
    }

    @Test("malformed-keeps-old sees the app groups: a group file or group preference deleted or rewritten fails")
    func malformedGroups() {
        var cell = passingMalformed
        cell.facts = .malformed([])
        var seeded = cell.snapshots[.afterSeed]!
        seeded.groupFiles = ["group.x/token": "g"]
        seeded.groupPreferences = ["group.x/sharedToken": "p"]
        var after = seeded
        cell.snapshots = [.afterSeed: seeded, .afterFirstLaunch: after]
        #expect(MalformedKeepsOld.check(cell).map(\.verdict) == [.pass])
        after.groupFiles = [:]
        after.groupPreferences = ["group.x/sharedToken": "rewritten"]
        cell.snapshots[.afterFirstLaunch] = after
        let findings = MalformedKeepsOld.check(cell)
        #expect(findings.map(\.verdict) == [.fail, .fail])
        #expect(findings.contains { $0.item == "group.x/token" && $0.message.contains("legacy app group file deleted") })
        #expect(
            findings.contains {
                $0.item == "group.x/sharedToken" && $0.message.contains("legacy app group preference overwritten")
            })
    }

    @Test("malformed-keeps-old fails an attempt whose valid store did not migrate, though the all-at-once part passes")
    func matrixValidStoreLost() {
        var cell = malformed(
            keptDigest: "bad", launchResults: [("authToken", .mismatch)],
            verifyResults: [("authToken", .mismatch), ("deviceKey", .missing)])
        let findings = MalformedKeepsOld.check(cell)
        #expect(findings.map(\.verdict) == [.fail] && findings[0].item == "authToken alone")
        #expect(findings[0].message.contains("the valid deviceKey read back as missing"))
        cell.facts = .malformed([])
        #expect(MalformedKeepsOld.check(cell).map(\.verdict) == [.pass])
    }

    @Test(
        "malformed-keeps-old fails an attempt that overwrote the malformed store or reported nothing for it; UNKNOWN when the seed did not malform it alone"
    )
    func matrixStoreTouched() {
        let overwritten = malformed(
            keptDigest: "rewritten", launchResults: [("authToken", .mismatch)],
            verifyResults: [("authToken", .mismatch), ("deviceKey", .found)])
        #expect(
            MalformedKeepsOld.check(overwritten).contains { $0.verdict == .fail && $0.message.contains("deleted or overwritten") }
        )
        let silent = malformed(
            keptDigest: "bad", launchResults: [], verifyResults: [("authToken", .missing), ("deviceKey", .found)])
        #expect(MalformedKeepsOld.check(silent).contains { $0.verdict == .fail && $0.message.contains("reported no error") })
        var notAlone = silent
        var alone = notAlone.malformedAttempts
        alone[0].problem = "the seed malformed authToken, deviceKey, not authToken alone"
        notAlone.facts = .malformed(alone)
        #expect(MalformedKeepsOld.check(notAlone).map(\.verdict) == [.unknown])
    }

    // MARK: The reinstall sweep

    private func reinstall(before: [DeviceSnapshot.Item], after: [DeviceSnapshot.Item]) -> CellEvidence {
        var cell = evidence(.reinstall)
        let seeded = DeviceSnapshot(keychain: [item("authToken", digest: "a")], preferences: [:], files: [:])
        cell.snapshots = [
            .afterSeed: seeded,
            .beforeReinstall: DeviceSnapshot(keychain: before, preferences: [:], files: [:]),
            .afterFirstLaunch: DeviceSnapshot(keychain: after, preferences: [:], files: [:]),
        ]
        cell.launches = [
            launch(1, "v1", .seed, [("authToken", .written)]), launch(2, "v2", .launch),
            launch(3, "v2", .verify, [("authToken", .missing)]),
        ]
        return cell
    }

    @Test("reinstall-sweeps fails when a synchronizable item or another class survives, which after-seed alone cannot show")
    func hardItemsSurvive() {
        let neighbour = item("session", digest: "n", group: CellRunner.neighbour.accessGroups[0])
        let synced = item("synced", digest: "s", sync: true), key = item("", digest: "key", itemClass: "keys")
        let before = [item("authToken", digest: "a"), synced, key, neighbour]
        let survived = reinstall(before: before, after: [synced, key, neighbour])
        let findings = ReinstallSweeps.check(survived)
        // Kinds the app never writes (it wrote a local generic password): hygiene, a FAIL only under --strict.
        #expect(findings.map(\.verdict) == [.fail, .fail] && findings.allSatisfy { $0.warning == true })
        #expect(findings.contains { $0.item == synced.key && $0.message.contains("synchronizable") })
        #expect(findings.contains { $0.item == key.key })
        var seedOnly = survived
        seedOnly.snapshots[.beforeReinstall] = nil
        seedOnly.snapshots[.afterFirstLaunch] = DeviceSnapshot(keychain: [synced, key], preferences: [:], files: [:])
        #expect(ReinstallSweeps.check(seedOnly).map(\.verdict) == [.pass])
        #expect(ReinstallSweeps.check(reinstall(before: before, after: [neighbour])).map(\.verdict) == [.pass])
    }

    @Test(
        "reinstall-sweeps: a planted item surviving is a FAIL only when it is what the app writes (a declared item, or one its launches wrote, synchronizable or not), and says why"
    )
    func plantedByWhatTheAppWrites() {
        // The synchronizable copy of the item the seed wrote: the sweep misses the app's own item.
        let twin = item("authToken", digest: "p", sync: true)
        let findings = ReinstallSweeps.check(reinstall(before: [item("authToken", digest: "a"), twin], after: [twin]))
        #expect(findings.map(\.verdict) == [.fail] && findings[0].warning == nil, "\(findings)")
        #expect(
            findings[0].message.contains(
                "a synchronizable genp item planted before the reinstall survived it: it is what the app writes itself"
                    + " (genp service svc account authToken in T.app: the item authToken the new build declares)"))
        // An item the seed wrote that neither build declares: its synchronizable copy is still the app's own.
        let cache = item("cache", digest: "c"), cacheTwin = item("cache", digest: "t", sync: true)
        var written = reinstall(before: [item("authToken", digest: "a"), cache, cacheTwin], after: [cacheTwin])
        written.snapshots[.afterSeed] = DeviceSnapshot(
            keychain: [item("authToken", digest: "a"), cache], preferences: [:], files: [:])
        let writtenFindings = ReinstallSweeps.check(written)
        #expect(writtenFindings.map(\.verdict) == [.fail] && writtenFindings[0].warning == nil, "\(writtenFindings)")
        #expect(
            writtenFindings[0].message.contains(
                "(genp service svc account cache in T.app: an item the app's launches wrote on the device)"))
        // The same class and service, another account: not what the app writes, hygiene only.
        let local = item("local", digest: "p")
        let hygiene = ReinstallSweeps.check(reinstall(before: [item("authToken", digest: "a"), local], after: [local]))
        #expect(hygiene.map(\.warning) == [true], "\(hygiene)")
        #expect(
            hygiene[0].message.contains(
                "hygiene: a genp item planted before the reinstall survived it; the app never writes it (no item either"
                    + " build declares and none its launches wrote is genp service svc account local in T.app)"))
        let inet = item("sweep.example.com", digest: "i", itemClass: "inet")
        let inetHygiene = ReinstallSweeps.check(reinstall(before: [item("authToken", digest: "a"), inet], after: [inet]))
        #expect(inetHygiene.map(\.warning) == [true] && inetHygiene[0].message.contains("hygiene: an inet item planted"))
    }

    @Test(
        "reinstall-sweeps: a planted item that is an item the new build declares (a small app's own service) is a FAIL naming it")
    func plantedDeclaredItem() {
        let notes = BuildDeclaration(
            secrets: [
                DeclaredItem(
                    label: "token", store: .keychain(KeychainItemDeclaration(service: "com.example.notes", account: "token")))
            ])
        var cell = reinstall(before: [], after: [])
        cell.declarations = CaseDeclarations(caseID: "c", old: notes, new: notes)
        let own = DeviceSnapshot.Item(
            itemClass: "genp", accessGroup: "T.app", service: "com.example.notes", account: "token", accessible: "ak",
            synchronizable: false, digest: "a")
        var planted = own
        planted.synchronizable = true
        planted.digest = "p"
        let other = DeviceSnapshot.Item(
            itemClass: "genp", accessGroup: "T.app", service: "com.example.sweep", account: "token", accessible: "ak",
            synchronizable: false, digest: "o")
        cell.snapshots[.afterSeed] = DeviceSnapshot(keychain: [own], preferences: [:], files: [:])
        cell.snapshots[.beforeReinstall] = DeviceSnapshot(keychain: [own, planted, other], preferences: [:], files: [:])
        cell.snapshots[.afterFirstLaunch] = DeviceSnapshot(keychain: [planted, other], preferences: [:], files: [:])
        cell.planted = [planted.key, other.key]
        let findings = ReinstallSweeps.check(cell).sorted { $0.message < $1.message }
        #expect(findings.count == 2, "\(findings)")
        #expect(
            findings.contains {
                $0.warning == nil
                    && $0.message.contains(
                        "(genp service com.example.notes account token in T.app: the item token the new build declares)")
            })
        #expect(
            findings.contains {
                $0.warning == true && $0.message.contains("is genp service com.example.sweep account token in T.app)")
            })
    }

    @Test(
        "reinstall-sweeps: declared bookkeeping a launch wrote after the seed is the install's own, never planted (a fresh install writes it again)"
    )
    func bookkeepingAfterSeedIsOwn() {
        var marker = item("schemaVersion", digest: "s")
        marker.bookkeeping = true
        let findings = ReinstallSweeps.check(reinstall(before: [item("authToken", digest: "a"), marker], after: [marker]))
        #expect(findings.map(\.verdict) == [.pass], "\(findings)")
    }

    @Test("reinstall-sweeps: the previous install's own item surviving or its secret read is a FAIL under sweeps")
    func ownItemSurvives() {
        let own = item("authToken", digest: "a")
        var cell = reinstall(before: [own], after: [own])
        cell.launches[2] = launch(3, "v2", .verify, [("authToken", .found)])
        let findings = ReinstallSweeps.check(cell)
        #expect(findings.map(\.verdict) == [.fail, .fail])
        #expect(findings.contains { $0.message.contains("survived the reinstall") })
        #expect(findings.contains { $0.message.contains("was read after reinstall") })
    }

    /// `cell` as judged for a new build that declares `"reinstall": "keeps-credentials"`.
    private func keepingCredentials(_ cell: CellEvidence) -> CellEvidence {
        var cell = cell
        let sample = CaseDeclarations.sample
        cell.declarations = CaseDeclarations(
            caseID: "c", old: sample.old, new: sample.new,
            newPolicies: BuildPolicies(reinstall: .init(.keepsCredentials, reason: "stay signed in")))
        return cell
    }

    @Test("reinstall-sweeps under keeps-credentials: kept unchanged and read back passes; rewritten or another value fails")
    func keepsCredentials() {
        let own = item("authToken", digest: "a"), planted = item("synced", digest: "s", sync: true)
        var kept = keepingCredentials(reinstall(before: [own, planted], after: [own]))
        kept.launches[2] = launch(3, "v2", .verify, [("authToken", .found)])
        kept.launches[2].secretPlaces = ["authToken": .keychain]
        kept.seeded = ["authToken"]
        #expect(ReinstallSweeps.check(kept).map(\.verdict) == [.pass])
        // The same cell without the policy: the resumed session fails.
        var undeclared = kept
        undeclared.declarations = .sample
        #expect(ReinstallSweeps.check(undeclared).map(\.verdict) == [.fail, .fail])
        // reads-old-data expects what the keychain kept to read back.
        #expect(ReadsOldData.check(kept).allSatisfy { $0.verdict == .pass })
        #expect(ReadsOldData.check(undeclared).contains { $0.verdict == .fail && $0.message.contains("expected missing") })

        var rewritten = keepingCredentials(reinstall(before: [own], after: [item("authToken", digest: "b")]))
        rewritten.launches[2] = launch(3, "v2", .verify, [("authToken", .mismatch)])
        let findings = ReinstallSweeps.check(rewritten)
        #expect(findings.map(\.verdict) == [.fail, .fail])
        #expect(findings.contains { $0.message.contains("rewritten across the reinstall") })
        #expect(findings.contains { $0.message.contains("not the previous install's") })

        // Planted items are hygiene under the policy too: a warning, whatever their kind.
        let plantedLocal = item("local", digest: "p")
        var hygiene = keepingCredentials(reinstall(before: [own, plantedLocal], after: [own, plantedLocal]))
        hygiene.launches[2] = launch(3, "v2", .verify, [("authToken", .found)])
        #expect(ReinstallSweeps.check(hygiene).map { $0.warning == true } == [true])
    }

    @Test("reinstall-sweeps fails when another team's item changes across the reinstall")
    func neighbourChanges() {
        let neighbour = item("session", digest: "n", group: CellRunner.neighbour.accessGroups[0])
        let findings = ReinstallSweeps.check(reinstall(before: [item("authToken", digest: "a"), neighbour], after: []))
        #expect(findings.map(\.verdict) == [.fail] && findings[0].message.contains("another team's keychain items changed"))
    }
}
