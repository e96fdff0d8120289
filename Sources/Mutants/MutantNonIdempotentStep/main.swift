// Known-bad Ledger build "non-idempotent-step" (v2 with one anti-pattern): a non-idempotent step: every launch rewrites a run counter.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.nonIdempotentStep())
