// Known-bad Ledger build "crash-on-corrupt-archive" (v2 with one anti-pattern): a crash on a corrupt archive: the decoded session is force-unwrapped at launch.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.crashOnCorruptArchive())
