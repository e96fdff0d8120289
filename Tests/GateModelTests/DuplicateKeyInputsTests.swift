import Foundation
@testable import GateModel
import Testing
import UpgradeContract

/// Every JSON input the runner reads refuses a key given twice (#37), as build.json does: run.json
/// (replay, merge, bundle) here; device.json and --fault-plan in their own suites.
@Suite struct DuplicateKeyInputsTests {
    @Test("run.json with a key given twice is bad input naming the key; the same file without it reads")
    func runJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dup-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = RunInputs.BuildFiles(
            executable: String(repeating: "a", count: 64), entitlements: String(repeating: "b", count: 64))
        let inputs = RunInputs(
            builds: ["v1", "v2"], runtime: .current, caseID: "first", scenarios: [.upgrade],
            buildFiles: ["v1": files, "v2": files], runnerVersion: "test")
        let text = String(decoding: GateJSON.pretty(inputs), as: UTF8.self)
        let path = folder.appendingPathComponent("run.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try RunInputs.read(from: path).caseID == "first")
        // The same document with "caseID" given again: Foundation would keep one, jq the other.
        let doubled = text.replacingOccurrences(
            of: "\"caseID\" : \"first\"", with: "\"caseID\" : \"first\",\n  \"caseID\" : \"second\"")
        #expect(doubled != text)
        try doubled.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: GateError.malformed(path: path, reason: DuplicateKeys.reason("caseID"))) {
            try RunInputs.read(from: path)
        }
    }
}
