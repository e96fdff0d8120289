// Known-bad Ledger build "stale-artefacts-resync" (v3 with one anti-pattern): v1's leftover artefacts at schema 2 trigger a resync that deletes the migrated tokens.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.staleArtefactsResync())
