import AppHarness
import Foundation

/// A known-bad variant ("mutant") of a Ledger build: the base build's hooks, with code run before
/// or after its plain launch, or its verify or cleanup replaced. Each mutant changes one thing
/// (see ``LedgerMutants``); the frozen builds themselves are never edited.
public struct LedgerVariant<Base: AppBuild>: AppBuild {
    public let buildID: String
    /// The frozen build (or build type) the mutant starts from.
    public var base: Base
    /// Runs at the start of a plain launch, before anything of the base build.
    public var beforeLaunch: @Sendable (HarnessLaunch) async -> Void = { _ in }
    /// Runs at the start of a seed launch, before the base build's seed (which writes the status file).
    public var beforeSeed: @Sendable (HarnessLaunch) async -> Void = { _ in }
    /// Runs at the end of a plain launch, after the base build's launch sequence.
    public var afterLaunch: @Sendable (HarnessLaunch) async -> Void = { _ in }
    /// Replaces the base build's verify hook when set (a mutant that reads its items another way).
    public var verifyHook: (@Sendable (HarnessLaunch) async -> Void)?
    /// Replaces the base build's cleanup hook when set (a mutant that keeps its items elsewhere).
    public var cleanupHook: (@Sendable (HarnessLaunch) async -> Void)?

    /// A variant of `base` reported as build `buildID`.
    public init(buildID: String, base: Base) {
        self.buildID = buildID
        self.base = base
    }

    public func seed(_ launch: HarnessLaunch) async {
        await beforeSeed(launch)
        await base.seed(launch)
    }
    public func seedMalformed(_ launch: HarnessLaunch) async { await base.seedMalformed(launch) }

    public func verify(_ launch: HarnessLaunch) async {
        if let verifyHook { await verifyHook(launch) } else { await base.verify(launch) }
    }

    public func cleanup(_ launch: HarnessLaunch) async {
        if let cleanupHook { await cleanupHook(launch) } else { await base.cleanup(launch) }
    }

    public func launch(_ launch: HarnessLaunch) async {
        await beforeLaunch(launch)
        await base.launch(launch)
        await afterLaunch(launch)
    }
}
