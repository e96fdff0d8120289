import Foundation
import Testing
import TestSupport

/// The scripts' bad usage is a one-line error naming the setting or argument, exit 2, before any
/// build starts (so these run in milliseconds and never build or time anything).
@Suite struct ScriptUsageTests {
    /// The test process's PATH (python3 and bash where this machine keeps them), and nothing else.
    static let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

    @Test("scripts/gate refuses a CONFIGURATION other than debug or release, naming it")
    func gateConfiguration() throws {
        var environment = Self.environment
        environment["CONFIGURATION"] = "fast"
        let result = try Script.run("gate", [], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr == "scripts/gate: CONFIGURATION must be debug or release, not 'fast'\n")
        #expect(result.stdout.isEmpty)
    }

    /// A folder that exists and is not a checkout of the package.
    static let notACheckout = Script.repositoryRoot + "/scripts"

    @Test(
        "scripts/bench: an unknown benchmark, and compare without a checkout, with bad ROUNDS or stray words",
        arguments: [
            (["lauch"], "unknown benchmark 'lauch'"),
            (["compare"], "give the other checkout's folder"),
            (["compare", "/nonexistent-checkout"], "/nonexistent-checkout: no such folder"),
            (["compare", notACheckout], "not a checkout of this package (no Package.swift)"),
            (["compare", Script.repositoryRoot, "0"], "ROUNDS: '0' is not a positive whole number"),
            (["compare", Script.repositoryRoot, "3", "--jobs"], "'--jobs': give gate options after --"),
        ])
    func benchUsage(_ arguments: [String], _ message: String) throws {
        let result = try Script.run("bench", arguments, environment: Self.environment)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
