// Known-bad Ledger build "locked-read-deletes" (v2 with one anti-pattern): locked read answered with delete: SecItemCopyMatching -25308 followed by SecItemDelete.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.lockedReadDeletes())
