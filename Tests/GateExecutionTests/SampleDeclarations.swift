@testable import GateExecution
import GateTestSupport
import UpgradeContract

extension CaseDeclarations {
    /// The sample builds' secrets, declared as keychain items by both builds (for evidence made by hand).
    static let sample: CaseDeclarations = {
        let declaration = BuildDeclaration(
            secrets: GatePipeline.sampleLabels.map {
                DeclaredItem(label: $0, store: .keychain(KeychainItemDeclaration(service: "svc", account: $0)))
            })
        return CaseDeclarations(caseID: "c", old: declaration, new: declaration)
    }()
}
