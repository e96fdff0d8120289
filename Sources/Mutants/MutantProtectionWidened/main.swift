// Known-bad Ledger build "protection-widened" (v3 with one anti-pattern): ThisDeviceOnly items re-saved with kSecAttrAccessibleAfterFirstUnlock.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.protectionWidened())
