import AppHarness
import Foundation
import LedgerRelease2

/// The migration parts Ledger 3.0 added: step 2 -> 3 and the artefact janitor.
extension LedgerParts {
    /// Step 2 -> 3.
    public func tightenAccessibility() -> any MigrationStep { TightenAccessibilityStep(journal: journal) }

    public func janitor() -> LegacyArtefactJanitor {
        LegacyArtefactJanitor(vault: vault, files: environment.files, documents: environment.documents, journal: journal)
    }
}
