// Known-bad Ledger build "migrate-every-launch" (v2 with one anti-pattern): migrate every launch: the stored schema version is written but never read.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.migrateEveryLaunch())
