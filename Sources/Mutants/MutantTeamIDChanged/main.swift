// Known-bad Ledger build "team-id-changed" (v3 with one anti-pattern): Team ID changed without a bridge release: every access group gets a new team prefix.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.teamIDChanged())
