import Foundation
import GateModel
import SimRuntime
import SimSecurity

/// What one exploration attempt did and what the device held at each of its checkpoints, in order:
/// the facts the ``Explorer`` records and ``ExplorationInvariants`` judges. The explorer decides
/// only what to do next (it stops when a launch it needed did not end with a status file, and
/// skips a state already explored); whether that is a failure is the checker's.
///
/// Names, statuses, digests and places only: like every piece of evidence, never a secret's value.
struct AttemptRecord: Sendable {
    /// What the attempt saw, step by step.
    enum Step: Sendable {
        /// A launch the attempt needed to end cleanly with a status file before it could go on; a
        /// launch that did not fails `needed`.
        case launch(LaunchRecord, needed: GateCondition)
        /// The first launch, whose mutation log plans the exploration: one that logged no store
        /// operation means the seam did not record.
        case planned(LaunchRecord)
        /// Where each seeded secret was at a checkpoint (I1, I6), `when` saying which; `crashed` is
        /// the launch a planned crash ended right before it, if one did.
        case located([String: SecretLocator.Place], when: String, crashed: LaunchRecord?)
        /// The new build's keychain items right after `recovery` (I2: what it reported written exists).
        case itemsAfterRecovery([KeychainItemRecord], recovery: LaunchRecord)
        /// The store before and after another plain launch (I4: it changes nothing).
        case relaunched(before: DeviceSnapshot, after: DeviceSnapshot)
        /// The verify launch after recovery: every seeded secret must read back.
        case verified(LaunchRecord)
        /// Where each seeded secret was at the end, with the migration state the recovery's last
        /// launches reported (I3: after a clean run the legacy plaintext is gone).
        case settled([String: SecretLocator.Place], migration: MigrationState?)
        /// The launches after the recovery, each with the app's own startup read, and the secrets the
        /// old build's startup read found at its seed (I7: the user is still signed in with them).
        case signedIn([LaunchRecord], baseline: Set<String>, source: String)
        /// The app's keychain items holding each secret at the end of an interleavings schedule's
        /// checks, with the migration state its launches reported: after a clean run, one each (no duplicate).
        case holders([String: [String]], migration: MigrationState?)
        /// Something the attempt could not carry out, such as a planned crash point not reached.
        case unjudgeable(String)
    }

    let id: String
    /// The old build's secrets its seed launch reported written; nil when no device could be prepared.
    var seeded: [String]?
    /// What the old build's startup read found at its seed, and its name in a finding.
    var signedIn: (labels: Set<String>, source: String)?
    var steps: [Step] = []
    /// The attempt whose starting state this one reached (``ExplorationAttempt/coveredBy``).
    var coveredBy: String?
    /// The store operations around the planned fault or crash (``ExplorationAttempt/excerpt(_:last:)``).
    var log: [String] = []
    /// The launches honest-status judges: the template's seed launch in the first attempt, then the attempt's own.
    var launches: [LaunchRecord] = []
    /// Why the attempt stopped before its end: a device error.
    var stopped: String?
    /// The runner was interrupted (SIGINT or SIGTERM) during the attempt.
    var interrupted = false

    init(id: String) { self.id = id }

    /// Records a launch the attempt needs, and tells whether it ended cleanly with a status file
    /// (whether the attempt can go on).
    mutating func needs(_ launch: LaunchRecord, for condition: GateCondition = .crashSafe) -> Bool {
        steps.append(.launch(launch, needed: condition))
        return launch.exitedCleanly && launch.status != nil
    }

    /// Records the first launch that plans the exploration, and tells whether it logged anything.
    mutating func plans(_ launch: LaunchRecord) -> Bool {
        steps.append(.planned(launch))
        return !launch.mutations.isEmpty
    }

    mutating func record(_ step: Step) { steps.append(step) }
}
