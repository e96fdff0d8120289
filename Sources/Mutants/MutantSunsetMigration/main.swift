// Known-bad Ledger build "sunset-migration" (v2 with one anti-pattern): a migration that runs only before a sunset date.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.sunsetMigration())
