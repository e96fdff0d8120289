// Known-bad Ledger build "prewarm-empty-read" (v2 with one anti-pattern): prewarm empty read taken as nothing to migrate: preferences read before first unlock decide step 0->1.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.prewarmEmptyRead())
