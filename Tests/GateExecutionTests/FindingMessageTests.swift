import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import Testing
import UpgradeContract

/// A finding's message as the gate words it, with each OSStatus named (GateExecution knows the keychain's names).
@Suite struct FindingMessageTests {
    @Test("a finding's message names item, operation, status with its name and runtime")
    func findingMessage() {
        let named = GateFinding.describe(
            item: "authToken", operation: "SecItemCopyMatching", status: -25300, runtime: RuntimeVersion(major: 17, minor: 5),
            detail: "the migrated item is missing", statusText: GateFinding.statusText)
        #expect(
            named
                == "authToken: SecItemCopyMatching answered -25300 (errSecItemNotFound) on iOS 17.5: the migrated item is missing"
        )
        // The model alone has no keychain: its default message gives the bare number.
        let finding = GateFinding(
            .readsOldData, path: .id("v1-to-v2"), scenario: .upgrade, item: "authToken", verdict: .fail,
            operation: "SecItemCopyMatching", status: -25300, runtime: RuntimeVersion(major: 17, minor: 5),
            detail: "the migrated item is missing")
        #expect(finding.message == "authToken: SecItemCopyMatching answered -25300 on iOS 17.5: the migrated item is missing")
        let unnamed = GateFinding.describe(
            item: nil, operation: "SecItemAdd", status: -1, runtime: nil, detail: "line\nbreak",
            statusText: GateFinding.statusText)
        #expect(unnamed == "SecItemAdd answered -1: line break")
    }
}
