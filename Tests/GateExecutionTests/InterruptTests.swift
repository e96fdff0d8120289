import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing

@Suite("An interrupted gate fails closed")
struct InterruptTests {
    @Test("SIGTERM or SIGINT mid-run: exit 3, and gate.json and junit.xml say UNKNOWN, never PASS", arguments: [SIGTERM, SIGINT])
    func interrupted(_ signalNumber: Int32) throws {
        let directory = try TemporaryDirectory("interrupt")
        let out = directory.file("out")
        let gate = Process()
        gate.executableURL = URL(fileURLWithPath: BuiltProducts.executable("upgrade-runner"))
        gate.arguments = [
            "gate", "--case-id", "stop", "--out", out, "--jobs", "1", "--builds-dir", BuiltProducts.repositoryBuilds,
            "--products", BuiltProducts.directory.path,
        ]
        gate.standardOutput = FileHandle.nullDevice
        gate.standardError = FileHandle.nullDevice
        try gate.run()
        // Wait until the first cell has started writing, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: out + "/paths"), Date() < deadline, gate.isRunning {
            usleep(20_000)
        }
        #expect(gate.isRunning)
        kill(gate.processIdentifier, signalNumber)
        gate.waitUntilExit()
        #expect(
            gate.terminationReason == .exit && gate.terminationStatus == 3,
            "\(gate.terminationReason.rawValue) \(gate.terminationStatus)")
        let verdict = try String(contentsOfFile: out + "/gate.json", encoding: .utf8)
        #expect(verdict.contains("\"finished\" : false"))
        #expect(verdict.contains("\"verdict\" : \"UNKNOWN\""))
        let document = try JSONSerialization.jsonObject(with: Data(verdict.utf8)) as? [String: Any]
        #expect(document?["verdict"] as? String == "UNKNOWN")
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("UNKNOWN"))
        #expect(FileManager.default.fileExists(atPath: out + "/.upgrade-runner-in-progress"))
        // The run's simulated devices, whose keychains and preferences held the case's secrets, are
        // gone (a worker may have begun an empty device in the last moment; it holds no secret).
        // They were made where TemporaryDevices.parent chose (a memory file system where there is one).
        for base in Set([NSTemporaryDirectory(), TemporaryDevices.parent(needing: 0)]) {
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: base)
                .filter { $0.hasPrefix("upgrade-runner-devices-\(gate.processIdentifier)-") }
            for folder in leftovers {
                let scan = try SecretScanner.scan(directory: base + folder, secrets: GatePipeline.sampleSecrets(caseID: "stop"))
                #expect(scan.leaks.isEmpty, "\(folder)")
                try? FileManager.default.removeItem(atPath: base + folder)
            }
        }
    }
}
