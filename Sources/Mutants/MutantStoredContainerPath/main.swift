// Known-bad Ledger build "stored-container-path" (v2 with one anti-pattern): the session file found by an absolute path kept in the preferences.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.storedContainerPath())
