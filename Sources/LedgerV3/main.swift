// Ledger 3.0 as an automation build: the harness reads the launch mode and test case from the
// arguments, runs the build's hook, and writes the status file.
import AppHarness
import LedgerRelease3

await Harness.main(LedgerV3Build())
