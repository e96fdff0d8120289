// Known-bad Ledger build "malformed-stops-migration" (v2 with one anti-pattern): a failed migration step skips every later step.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.malformedStopsMigration())
