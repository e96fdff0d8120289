// Known-bad Ledger build "settings-gated-migration" (v2 with one anti-pattern): a migration that reads legacy tokens only when an incidental settings file exists.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.settingsGatedMigration())
