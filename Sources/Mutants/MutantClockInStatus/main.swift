// Known-bad Ledger build "clock-in-status" (v2 with one anti-pattern): a status file that records the device clock.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.clockInStatus())
