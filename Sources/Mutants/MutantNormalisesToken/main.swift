// Known-bad Ledger build "normalises-token" (v2 with one anti-pattern): a token normalised while migrating: each legacy preference is converted to Unicode NFC before its keychain write.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.normalisesToken())
