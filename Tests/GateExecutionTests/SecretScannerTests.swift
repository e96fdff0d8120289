import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing

@Suite struct SecretScannerTests {
    static let token = Secret(label: "authToken", value: Data("tok_3f9a/QX+7z<>\u{1}end".utf8))
    static let binary = Secret(label: "sessionKey", value: Data((0..<24).map { UInt8(($0 * 37 + 11) % 256) }))

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    /// How each encoding is planted in a file, written as a real tool would write it.
    static let plantings: [(SecretEncoding, @Sendable (Data) -> Data)] = [
        (.raw, { Data("prefix ".utf8) + $0 + Data(" suffix".utf8) }),
        (.base64, { Data(#"{"blob":"\#($0.base64EncodedString())"}"#.utf8) }),
        (.base64URL, { Data("url=\(SecretPatterns.urlSafe($0.base64EncodedString()))&x=1".utf8) }),
        (.hexLower, { Data("hex \(hex($0)) end".utf8) }),
        (.hexUpper, { Data("HEX \(hex($0).uppercased()) end".utf8) }),
        (.sha256Hex, { Data("digest=\(GateHash.hex($0))".utf8) }),
        (.sha256HexUpper, { Data("DIGEST=\(GateHash.hex($0).uppercased())".utf8) }),
    ]

    @Test(
        "each planted encoding of each secret is found and named, never shown",
        arguments: [0, 1, 2, 3, 4, 5, 6], [token, binary])
    func plantedEncoding(index: Int, secret: Secret) throws {
        let (encoding, plant) = Self.plantings[index]
        let dir = try TemporaryDirectory("scan")
        try FileManager.default.createDirectory(
            atPath: dir.file("paths/v1-to-v2/upgrade/status"), withIntermediateDirectories: true)
        try plant(secret.value).write(to: URL(fileURLWithPath: dir.file("paths/v1-to-v2/upgrade/status/01-v1-seed.json")))
        try Data("nothing here".utf8).write(to: URL(fileURLWithPath: dir.file("run.json")))
        let result = try SecretScanner.scan(
            directory: dir.path, secrets: [Self.binary == secret ? Self.token : Self.binary, secret])
        let leaks = result.leaks.filter { $0.encoding == encoding }
        #expect(
            leaks == [
                SecretLeak(
                    file: "paths/v1-to-v2/upgrade/status/01-v1-seed.json", encoding: encoding, secretIndex: 2,
                    secretLabel: secret.label)
            ])
        #expect(!result.leaks.contains { $0.secretIndex == 1 })
        #expect(!leaks[0].description.contains(secret.value.base64EncodedString()))
        #expect(result.filesScanned == 2)
    }

    @Test("a secret inside a longer base64 text is found at every byte alignment", arguments: [0, 1, 2, 5])
    func embeddedBase64(prefix: Int) throws {
        let secret = Self.binary.value
        let blob = Data(repeating: 0x41, count: prefix) + secret + Data("trailer".utf8)
        for text in [blob.base64EncodedString(), SecretPatterns.urlSafe(blob.base64EncodedString())] {
            let found = try SecretScanner.scan(data: Data(text.utf8), secrets: [Self.binary])
            #expect(found.contains { $0.encoding == .base64 || $0.encoding == .base64URL }, "prefix \(prefix): \(text)")
        }
    }

    @Test("a JSON-escaped secret is found")
    func jsonEscaped() throws {
        let json = try JSONEncoder().encode(["token": String(decoding: Self.token.value, as: UTF8.self)])
        let found = try SecretScanner.scan(data: json, secrets: [Self.token])
        #expect(found.map(\.encoding) == [.jsonEscaped])
    }

    @Test("binary, hidden and nested files are read; a clean folder passes")
    func coverage() throws {
        let dir = try TemporaryDirectory("scan")
        try FileManager.default.createDirectory(atPath: dir.file("a/.b/c"), withIntermediateDirectories: true)
        try Data([0, 1, 2, 255, 254]).write(to: URL(fileURLWithPath: dir.file("a/.b/c/device.db")))
        try Data("clean".utf8).write(to: URL(fileURLWithPath: dir.file(".hidden")))
        let clean = try SecretScanner.scan(directory: dir.path, secrets: [Self.token, Self.binary])
        #expect(clean.isClean && clean.filesScanned == 2 && clean.bytesScanned == 10)
        try (Data([0, 0xFF]) + Self.binary.value + Data([0])).write(to: URL(fileURLWithPath: dir.file("a/.b/c/device.db")))
        let dirty = try SecretScanner.scan(directory: dir.path, secrets: [Self.token, Self.binary])
        #expect(dirty.leaks == [SecretLeak(file: "a/.b/c/device.db", encoding: .raw, secretIndex: 2, secretLabel: "sessionKey")])
    }

    @Test("a secret too short to scan for is refused")
    func tooShort() {
        #expect(throws: GateError.self) {
            try SecretScanner.scan(data: Data(), secrets: [Secret(label: "pin", value: Data("12".utf8))])
        }
    }

    @Test("leaks become findings on their cell, elsewhere on the whole run; clean cells pass")
    func findings() throws {
        let cells = [
            GateCell(path: .id("v1-to-v2"), scenario: .upgrade, condition: .noSecretInArtifacts),
            GateCell(path: .id("v1-to-v2"), scenario: .relaunch, condition: .noSecretInArtifacts),
            GateCell(path: .id("v1-to-v2"), scenario: .upgrade, condition: .readsOldData),
        ]
        let result = SecretScanResult(
            leaks: [
                SecretLeak(
                    file: "paths/v1-to-v2/upgrade/logs/02-v2-launch.log", encoding: .hexLower, secretIndex: 1,
                    secretLabel: "authToken"),
                SecretLeak(file: "run.json", encoding: .raw, secretIndex: 2, secretLabel: "sessionKey"),
            ],
            unreadable: [], filesScanned: 9, bytesScanned: 900, patterns: 20)
        let findings = NoSecretInArtifactsChecker.findings(for: result, cells: cells)
        #expect(findings.map(\.verdict) == [.fail, .pass, .fail])
        #expect(findings[0].message == "paths/v1-to-v2/upgrade/logs/02-v2-launch.log: holds secret #1 (authToken) as hex")
        #expect(findings[2].path == nil)
        #expect(
            GateEngine.evaluate(expected: cells, findings: findings).conditions.first { $0.condition == .noSecretInArtifacts }?
                .verdict == .fail)
    }

    @Test("a label seeded only empty in the run's cells makes a clean scan not judged, never PASS; a leak still FAILs")
    func onlyEmptyIsNotJudged() throws {
        let cells = [
            GateCell(path: .id("v1-to-v2"), scenario: .upgrade, condition: .noSecretInArtifacts),
            GateCell(path: .id("v1-to-v2"), scenario: .relaunch, condition: .noSecretInArtifacts),
        ]
        let clean = SecretScanResult(leaks: [], unreadable: [], filesScanned: 9, bytesScanned: 900, patterns: 20)
        let findings = NoSecretInArtifactsChecker.findings(for: clean, cells: cells, unseeded: ["authToken"])
        #expect(findings.allSatisfy { $0.notJudged == true }, "\(findings)")
        #expect(findings[0].message.contains("authToken was seeded only empty"), "\(findings[0].message)")
        let report = GateEngine.evaluate(expected: cells, findings: findings)
        #expect(report.conditions.first { $0.condition == .noSecretInArtifacts }?.verdict != .pass)
        let leaked = SecretScanResult(
            leaks: [
                SecretLeak(
                    file: "paths/v1-to-v2/upgrade/logs/02-v2-launch.log", encoding: .raw, secretIndex: 1,
                    secretLabel: "sessionKey")
            ],
            unreadable: [], filesScanned: 9, bytesScanned: 900, patterns: 20)
        #expect(
            NoSecretInArtifactsChecker.findings(for: leaked, cells: cells, unseeded: ["authToken"]).map(\.verdict).contains(.fail)
        )
        // Every label seeded with bytes somewhere: a clean scan PASSes as before.
        #expect(
            NoSecretInArtifactsChecker.findings(for: clean, cells: cells).allSatisfy {
                $0.verdict == .pass && $0.notJudged == nil
            })
    }

    @Test("an unreadable file makes its cell UNKNOWN, not PASS")
    func unreadable() {
        let cell = GateCell(path: .id("none-to-v1"), scenario: .freshInstall, condition: .noSecretInArtifacts)
        let result = SecretScanResult(
            leaks: [], unreadable: ["paths/none-to-v1/fresh-install/status/01.json"], filesScanned: 0, bytesScanned: 0,
            patterns: 1)
        #expect(NoSecretInArtifactsChecker.findings(for: result, cells: [cell]).map(\.verdict) == [.unknown])
    }
}
