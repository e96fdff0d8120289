// LedgerKit holds the live code of the sample app: the builds after v3 and the known-bad builds.
// It builds on the frozen released libraries, and its types are made of theirs (a mutant is a
// `LedgerV2Build` with one step replaced), so whoever imports LedgerKit sees them too.
@_exported import LedgerRelease1
@_exported import LedgerRelease2
@_exported import LedgerRelease3
