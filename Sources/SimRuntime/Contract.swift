// Every launched app and the runner speak the contract: SimRuntime, which every app build and the
// runner link, makes it visible to its importers, so that `import SimRuntime` is enough to read or
// write a status file.
@_exported import UpgradeContract
