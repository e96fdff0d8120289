// Known-bad Ledger build "percent-encodes-token" (v2 with one anti-pattern): a token re-encoded while migrating: each legacy preference is percent-encoded (URL query) before its keychain write.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.percentEncodesToken())
