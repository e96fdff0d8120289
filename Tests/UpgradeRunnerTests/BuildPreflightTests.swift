import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// Preflight launches each build once per process and runtime, and reports the first bad build in
/// build-id order whatever finished first (`mutants` runs dozens of gates over the same builds, and
/// the same inputs must name the same build).
@Suite("Build preflight")
struct BuildPreflightTests {
    /// A products folder holding `name`, a shell script that counts its launches in `counter` and
    /// leaves a status file of this contract (or none, with `valid: false`).
    private static func countedBuild(
        _ directory: TemporaryDirectory, id: String, valid: Bool = true, comment: String = "", builtAs: String? = nil,
        extra: String = ""
    ) throws -> (build: Build, counter: String) {
        let products = directory.file("products")
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        let counter = directory.file("launches-\(id)")
        let status =
            #"{"build":"\#(builtAs ?? id)","caseID":"preflight","errors":[],"formatVersion":1,"items":[],"mode":"verify","runtime":"iOS 17.5"}"#
        let write = valid ? #"mkdir -p "$HOME/tmp" && printf '%s\n' '\#(status)' > "$HOME/tmp/upgrade-runner-status.json""# : ""
        let script = products + "/Counted-\(id)"
        try "#!/bin/sh\n# \(comment)\necho launched >> '\(counter)'\n\(extra)\n\(write)\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        try BuildFixture.write(in: directory.file("builds"), id: id, executable: "Counted-\(id)")
        let build = try BuildCatalog(folder: directory.file("builds"), productsFolder: products).build(id)
        return (build, counter)
    }

    /// These builds are shell scripts that count their launches in a file outside their device:
    /// the executable-format check, which refuses scripts (BadInputSuiteTests), and the confinement
    /// of a preflight launch to its device are not what these tests are about.
    static func scriptsAllowed(_ path: String) -> String? { nil }

    private static func launches(_ counter: String) -> Int {
        ((try? String(contentsOfFile: counter, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    @Test("a build that passed is not launched again in this process, until its executable or the runtime changes")
    func passedBuildsAreRemembered() throws {
        let directory = try TemporaryDirectory("preflight-cache")
        let (build, counter) = try Self.countedBuild(directory, id: "cached")
        try BuildPreflight.check([build], runtime: .current, timeout: 30, format: Self.scriptsAllowed, confined: false)
        try BuildPreflight.check([build], runtime: .current, timeout: 30, format: Self.scriptsAllowed, confined: false)
        #expect(Self.launches(counter) == 1, "the second check launched the build again")

        let ios18 = RuntimeVersion(major: 18)
        try BuildPreflight.check([build], runtime: ios18, timeout: 30, format: Self.scriptsAllowed, confined: false)
        #expect(Self.launches(counter) == 2, "another runtime is another preflight")

        // The same path, other bytes: the executable was rebuilt, so it is checked again.
        let (rebuilt, _) = try Self.countedBuild(directory, id: "cached", comment: "rebuilt")
        try BuildPreflight.check([rebuilt], runtime: .current, timeout: 30, format: Self.scriptsAllowed, confined: false)
        #expect(Self.launches(counter) == 3, "a changed executable is checked again")
    }

    @Test("an executable that reports another build id than its build.json is bad input naming both, before any cell")
    func reusedExecutable() throws {
        let directory = try TemporaryDirectory("preflight-reused")
        let (build, _) = try Self.countedBuild(directory, id: "v4", builtAs: "v3")
        do {
            try BuildPreflight.check([build], runtime: .current, timeout: 30, format: Self.scriptsAllowed, confined: false)
            Issue.record("an executable built as v3 passed preflight as v4")
        } catch {
            let (message, code) = ExitStatus.report(error)
            #expect(code == 2)
            #expect(message.contains("build.json"), "\(message)")
            #expect(
                message.contains(#"field "id" is "v4" but its executable"#) && message.contains(#"was built as "v3""#),
                "\(message)")
        }
        // The same executable declared as a stand-in (scripts/import-app.sh --stand-in) passes.
        let manifest = directory.file("builds/v4/build.json")
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        object["standIn"] = true
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: manifest))
        let standIn = try BuildCatalog(folder: directory.file("builds"), productsFolder: directory.file("products")).build("v4")
        try BuildPreflight.check([standIn], runtime: .current, timeout: 30, format: Self.scriptsAllowed, confined: false)
    }

    @Test("of several bad builds, the error names the first in build-id order, however they were given")
    func firstBadBuildInIDOrder() throws {
        let directory = try TemporaryDirectory("preflight-order")
        let late = try Self.countedBuild(directory, id: "b-late", valid: false).build
        let early = try Self.countedBuild(directory, id: "a-early", valid: false).build
        let good = try Self.countedBuild(directory, id: "0-good").build
        for order in [[late, early, good], [good, early, late], [early, late, good]] {
            do {
                try BuildPreflight.check(order, runtime: .current, timeout: 30, format: Self.scriptsAllowed, confined: false)
                Issue.record("two bad builds passed preflight")
            } catch {
                #expect("\(error)".contains("build a-early"), "\(error)")
                #expect(!"\(error)".contains("b-late"), "\(error)")
            }
        }
    }

    @Test("Slots.map answers in the items' order and throws the first item's error, even when a later one failed first")
    func slotsKeepOrder() throws {
        struct Failure: Error, Equatable { var index: Int }
        #expect(
            try Slots.map(Array(0..<8)) { (index: Int) throws(Failure) in index * 10 } == Array(stride(from: 0, to: 80, by: 10)))
        // Item 1 fails at once; item 0 fails only after item 1 has (or after 10 s, should the two
        // not run side by side on a one-core machine: then it fails second anyway).
        let laterFailed = DispatchSemaphore(value: 0)
        #expect(throws: Failure(index: 0)) {
            _ = try Slots.map([0, 1]) { (index: Int) throws(Failure) -> Int in
                if index == 1 {
                    laterFailed.signal()
                    throw Failure(index: 1)
                }
                _ = laterFailed.wait(timeout: .now() + 10)
                throw Failure(index: 0)
            }
        }
    }

    @Test("a preflight launch writes nowhere but its device: a write outside it is refused")
    func confinedToTheDevice() throws {
        let directory = try TemporaryDirectory("preflight-confined")
        let outside = directory.file("outside.txt")
        try "still here".write(toFile: outside, atomically: true, encoding: .utf8)
        let made = directory.file("made.txt")
        let (build, _) = try Self.countedBuild(
            directory, id: "confined", comment: "x", extra: "rm -f '\(outside)'; echo made > '\(made)'")
        try BuildPreflight.check([build], runtime: .current, timeout: 30, format: Self.scriptsAllowed)
        #expect(FileManager.default.fileExists(atPath: outside), "the launch removed a file outside its device")
        #expect(!FileManager.default.fileExists(atPath: made), "the launch made a file outside its device")
    }
}
