// Known-bad Ledger build "sweep-misses-own-marker" (v3 with one anti-pattern): the install marker is mirrored into the keychain, which outlives the app, so a reinstall of the same release is never swept.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.sweepMissesOwnMarker())
