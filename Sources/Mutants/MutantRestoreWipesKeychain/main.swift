// Known-bad Ledger build "restore-wipes-keychain" (v3 with one anti-pattern): a missing ThisDeviceOnly schema version beside a set install marker is taken for a keychain reset, and every item is deleted; after a restore onto a new phone the credentials that travelled are wiped.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.restoreWipesKeychain())
