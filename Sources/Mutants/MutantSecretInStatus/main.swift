// Known-bad Ledger build "secret-in-status" (v2 with one anti-pattern): a secret written to a status file: the restored token is put in a status field.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.secretInStatus())
