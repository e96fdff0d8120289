// Known-bad Ledger build "sweep-generic-only" (v2 with one anti-pattern): the reinstall sweep deletes only local generic passwords.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.sweepGenericOnly())
