// Known-bad Ledger build "os-gated-migration" (v2 with one anti-pattern): the migration runs only on iOS 17 and later.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.osGatedMigration())
