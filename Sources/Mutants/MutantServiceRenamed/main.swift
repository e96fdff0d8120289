// Known-bad Ledger build "service-renamed" (v3 with one anti-pattern): service renamed without rekey: kSecAttrService changed, old items stranded.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.serviceRenamed())
