// Known-bad Ledger build "secret-in-log" (v2 with one anti-pattern): a secret written to a log: the restored token is printed in a log line.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.secretInLog())
