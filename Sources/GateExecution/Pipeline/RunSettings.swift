import Foundation

/// How a run runs, whoever asked for it (`gate`, `run`, `replay`, `mutants`, a Swift caller through
/// ``GateRequest`` or ``ReplayRequest``): the one options type that ``GatePipeline`` and ``GateRun``
/// take, so that a new option is added here once, not copied through each request type. What the
/// run judges (builds, scenarios, case id, runtime) is ``RunInputs``; this is how it goes about it.
package struct RunSettings: Sendable {
    /// Cells run in parallel (`--jobs`; ``RequestLimits`` bounds it).
    package var jobs: Int
    /// Seconds before a hanging app launch is killed (`--timeout`).
    package var timeout: Double
    /// Write into an `out` that also holds files that are not a run's (`--force`).
    package var force: Bool
    /// Copy every build's files into `out/inputs/` (`--archive-inputs`).
    package var archiveInputs: Bool
    /// Where the devices of what failed are kept (`--keep-failed`, ``KeptDevices``); nil: none kept.
    package var keepFailed: String?
    /// A stage of the whole command's executables (`mutants`, ``BuildStage``); nil: each run stages
    /// its own.
    package var stage: BuildStage?

    package init(
        jobs: Int, timeout: Double = 30, force: Bool = false, archiveInputs: Bool = false, keepFailed: String? = nil,
        stage: BuildStage? = nil
    ) {
        self.jobs = jobs
        self.timeout = timeout
        self.force = force
        self.archiveInputs = archiveInputs
        self.keepFailed = keepFailed
        self.stage = stage
    }
}
