// Known-bad Ledger build "clock-in-launch" (v2 with one anti-pattern): a plain launch whose status file records the device clock.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.clockInLaunch())
