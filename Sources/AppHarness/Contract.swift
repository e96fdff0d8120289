// An app build's automation speaks the contract (the status file's words, the launch modes, the
// build declaration): `import AppHarness` is enough to use it.
@_exported import UpgradeContract
