// Known-bad Ledger build "availability-narrowed" (v2 with one anti-pattern): credentials migrated from preferences into WhenUnlocked keychain items.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.availabilityNarrowed())
