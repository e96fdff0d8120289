// Known-bad Ledger build "accessible-in-query" (v2 with one anti-pattern): kSecAttrAccessible in the search query: items of another class read as not found (the phantom mismatch).
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.accessibleInQuery())
