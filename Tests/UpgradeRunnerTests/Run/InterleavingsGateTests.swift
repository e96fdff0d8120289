import Foundation
import GateModel
import TestSupport
import Testing
import UpgradeContract
import UpgradeRunner

/// interleavings (issue 39) on ExtensionSampleApp: the new release's first launch and its notification
/// service extension's launch at once, every schedule of their keychain calls within the preemption bound.
/// The good pair passes (the extension reads the old place, then the new one, while the app adds before it
/// deletes); the known-bad 2.0 whose extension also migrates, backing out of a duplicate item by deleting
/// it, loses the session in some schedule, and crash-safe names that schedule.
@Suite("interleavings: the app's first launch and an extension's, every schedule within the bound")
struct InterleavingsGateTests {
    static func gate(_ new: String, in directory: TemporaryDirectory, keepFailed: String? = nil) throws -> GateReport {
        try ExtensionFirstGateTests.gate(new, in: directory, scenario: .interleavings, keepFailed: keepFailed)
    }

    static func result(_ report: GateReport, _ path: String, _ condition: GateCondition) -> GateReport.CellResult? {
        ExtensionFirstGateTests.result(report, path, condition, scenario: .interleavings)
    }

    static func attempts(_ directory: TemporaryDirectory, _ new: String) throws -> [String: Any] {
        let path = directory.file("out-\(new)/paths/notes1-to-\(new)/interleavings/attempts.json")
        let data = try #require(FileManager.default.contents(atPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the good pair passes every schedule")
    func goodPair() throws {
        let directory = try TemporaryDirectory("interleavings")
        let report = try Self.gate("notes2", in: directory)
        #expect(report.verdict == .pass, "\(report.allFindings.filter { $0.verdict != .pass })")
        #expect(Self.result(report, "notes1-to-notes2", .crashSafe)?.verdict == .pass)
        #expect(Self.result(report, "notes1-to-notes2", .staysSignedIn)?.verdict == .pass)
        let document = try Self.attempts(directory, "notes2")
        let attempts = try #require(document["attempts"] as? [[String: Any]])
        let note = document["note"] as? String ?? ""
        print("interleavings good pair: \(note)")
        // Both orders without preemption, and schedules that preempt.
        let ids = attempts.compactMap { $0["id"] as? String }
        #expect(ids.first?.hasPrefix("schedule a") == true, "\(ids)")
        #expect(ids.contains { $0.hasPrefix("schedule e") }, "\(ids)")
        #expect(attempts.count > 4, "\(note)")
    }

    @Test("the known-bad 2.0 whose extension also migrates loses the session in some schedule: crash-safe FAILs")
    func bothMigrate() throws {
        let directory = try TemporaryDirectory("interleavings-bad")
        let report = try Self.gate("notes2-both-migrate", in: directory, keepFailed: directory.file("kept"))
        let crashSafe = try #require(Self.result(report, "notes1-to-notes2-both-migrate", .crashSafe))
        #expect(crashSafe.verdict == .fail)
        let reason = crashSafe.reasons.joined(separator: "\n")
        #expect(reason.contains("schedule "), "\(reason)")
        #expect(reason.contains("session"), "\(reason)")
        let document = try Self.attempts(directory, "notes2-both-migrate")
        print("interleavings known-bad: \(document["note"] as? String ?? "")")
        let attempts = try #require(document["attempts"] as? [[String: Any]])
        let failed = try #require(attempts.first { ($0["outcome"] as? String) == "failed" && $0["coveredBy"] == nil })
        // Its timeline shows both processes' operations in order: the extension's delete of what the app added.
        let log = (failed["log"] as? [String] ?? []).joined(separator: "\n")
        #expect(log.contains("-notes2-both-migrate-notify-launch"), "\(log)")
        #expect(log.contains(" a ") && log.contains(" e "), "\(log)")
        #expect(log.contains("errSecDuplicateItem"), "\(log)")
        // The schedules without preemption pass: only an interleaving loses it.
        let serial = attempts.filter { ($0["id"] as? String).map { Self.preemptionFree($0) } ?? false }
        #expect(serial.allSatisfy { ($0["outcome"] as? String) == "ok" }, "\(serial)")
        // kept.md replays a failing schedule with one line: the app with its extension beside it, the
        // schedule's order; on the device before it, it loses the session again.
        let kept = try String(contentsOfFile: directory.file("kept/kept.md"), encoding: .utf8)
        let line = try #require(
            kept.split(separator: "\n").first { $0.hasPrefix("upgrade-runner launch ") && $0.contains("--schedule") },
            "\(kept)")
        #expect(line.contains("--beside notify --schedule "), "\(line)")
        let words = MutantsEndToEndTests.launchArguments(line)
        let id = try #require(words.firstIndex(of: "--schedule").map { words[$0 + 1] })
        let before = try #require(words.first { $0.hasSuffix("-before") })
        let cli = try CLI("interleavings-replay")
        let replayed = cli.run(words)
        #expect(replayed.code == 0, "\(replayed.output)\(replayed.error)")
        #expect(replayed.output.hasPrefix("schedule \(id):"), "\(replayed.output)")
        let dump = cli.run(["keychain", "--devices-root", directory.file("kept"), before, "dump", "--json"])
        #expect(dump.code == 0, "\(dump.error)")
        #expect(!dump.output.contains("\"session\""), "the session is lost again: \(dump.output)")
        // A bad schedule id is bad input naming the flag.
        let bad = cli.run(
            [
                "launch", "--devices-root", directory.file("kept"), before, "com.example.notes", "--beside", "notify",
                "--schedule", "ax",
            ])
        #expect(bad.code == 2 && bad.error.contains("--schedule"), "\(bad.error)")
    }

    @Test("the known-bad 2.0 whose extension reads the new place first misses both between the app's add and delete")
    func extensionReadsNewFirst() throws {
        let directory = try TemporaryDirectory("interleavings-new-first")
        let report = try Self.gate("notes2-new-first", in: directory)
        let signedIn = try #require(Self.result(report, "notes1-to-notes2-new-first", .staysSignedIn))
        #expect(signedIn.verdict == .fail)
        let reason = signedIn.reasons.joined(separator: "\n")
        #expect(reason.contains("-notes2-new-first-notify-launch"), "\(reason)")
        #expect(reason.contains("notes1's extension notify at its own startup"), "\(reason)")
        // Nothing is lost: crash-safe passes; the user only sees themselves signed out for that launch.
        #expect(Self.result(report, "notes1-to-notes2-new-first", .crashSafe)?.verdict == .pass)
        let document = try Self.attempts(directory, "notes2-new-first")
        print("interleavings new-first: \(document["note"] as? String ?? "")")
        let attempts = try #require(document["attempts"] as? [[String: Any]])
        // Only schedules with a preemption: serially the extension reads before or after the whole migration.
        let serial = attempts.filter { ($0["id"] as? String).map { Self.preemptionFree($0) } ?? false }
        #expect(serial.allSatisfy { ($0["outcome"] as? String) == "ok" }, "\(serial)")
        #expect(attempts.contains { ($0["outcome"] as? String) == "failed" })
    }

    /// `schedule aaaeee`: one process ran all its steps, then the other.
    static func preemptionFree(_ id: String) -> Bool {
        let letters = Array(id.dropFirst("schedule ".count))
        return zip(letters, letters.dropFirst()).filter { $0 != $1 }.count <= 1
    }
}
