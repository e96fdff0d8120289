// The file operations the device and the platform use (FileTree, AtomicFile, FileCopy, SHA-256 of
// files) live in FileUtility, below SimRuntime, so that the gate's model reads and writes files
// without a simulator module. SimRuntime shows them to its importers, which used them from here.
@_exported import FileUtility
