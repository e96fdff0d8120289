import Foundation
import Testing
import TestSupport

/// The whole transfer on one device through the command line: an old release seeds, the bridge
/// release runs its own launch, the diff with the device's item counts, then the new team's release.
@Suite struct TransferDeviceTests {
    static let oldGroups: Set = ["LEDGER1234.com.example.ledger", "LEDGER1234.com.example.shared"]

    @Test(
        "v1 or v3, then v3-bridge, then v5-transfer: every item moves to the app group, then to the new team's group",
        arguments: ["v1", "v3"])
    func bridgeThenTransfer(from old: String) throws {
        let cli = try TransferCLI("transfer-device")
        let device = "TRANSFER-1"
        func ok(_ words: [String]) {
            let result = cli.run(words)
            #expect(result.code == 0, "\(words.joined(separator: " ")): \(result.error)")
        }
        ok(["device", "create", "Phone", "--udid", device, "--clock", "2024-05-01T00:00:00Z"])
        ok(["device", "boot", device])
        ok(["install", device, old])
        ok(["launch", device, "com.example.ledger", "--", "-UITestSeedLegacyKeychain", "-UITestCaseID", "td"])
        #expect(try cli.items(device).allSatisfy { Self.oldGroups.contains($0.group) })

        ok(["install", device, "v3-bridge"])
        ok(["launch", device, "com.example.ledger"])
        let bridge = try cli.lastStatus(device)
        #expect((bridge["migration"] as? [String: Any])?["to"] as? Int == 4)
        let bridged = try cli.items(device)
        #expect(bridged.count == 6)
        #expect(bridged.allSatisfy { $0.group == "group.com.example.ledger" }, "\(bridged)")

        // The gate's entitlements scenario asks this with the same counts.
        let diff = cli.run(["entitlements", "diff", "v3-bridge", "v5-transfer", "--device", device])
        #expect(diff.code == 0, "\(diff.output)")
        #expect(diff.output.contains("items the new build could no longer reach: 0 of 6"))
        #expect(
            cli.run(["entitlements", "diff", "v3-bridge", "v4-transfer", "--device", device]).code == 1,
            "a new-team build without the app group cannot reach the bridged items")

        ok(["install", device, "v5-transfer"])
        ok(["launch", device, "com.example.ledger"])
        let imported = try cli.lastStatus(device)
        #expect((imported["migration"] as? [String: Any])?["from"] as? Int == 4)
        #expect((imported["migration"] as? [String: Any])?["to"] as? Int == 5)
        let moved = try cli.items(device)
        #expect(moved.count == 6)
        #expect(moved.allSatisfy { $0.group == "NEWTEAM999.com.example.ledger" }, "the temporary copy is gone: \(moved)")
        ok(["launch", device, "com.example.ledger", "--", "-UITestVerifyKeychainV2", "-UITestCaseID", "td"])
        let verify = try cli.lastStatus(device).results
        for name in ["authToken", "refreshToken", "session", "deviceKey", "vault.migratedAt"] {
            #expect(verify[name] == "found", "\(name): \(verify[name] ?? "none")")
        }
    }
}
