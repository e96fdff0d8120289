// A Swift caller's `import UpgradeRunner` reaches the gate as before: the request, `ReleaseGate.run`,
// its report and findings (GateExecution and GateModel), beside the command line's `ExitStatus`.
@_exported import GateExecution
@_exported import GateModel
