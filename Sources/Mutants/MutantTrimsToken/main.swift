// Known-bad Ledger build "trims-token" (v2 with one anti-pattern): a token tidied while migrating: each legacy preference is trimmed of whitespace and newlines before its keychain write.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.trimsToken())
