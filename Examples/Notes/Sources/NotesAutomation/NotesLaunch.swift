import AppHarness
import NotesKit

/// The automation builds' launch: the app's own launch sequence, reported in the status file.
/// Seed, verify and cleanup come from the build's declaration (AppHarness's default hooks).
public struct NotesBuild: AppBuild {
    public let buildID: String
    public var removeBeforeWrite = false

    public init(buildID: String, removeBeforeWrite: Bool = false) {
        self.buildID = buildID
        self.removeBeforeWrite = removeBeforeWrite
    }

    public func launch(_ launch: HarnessLaunch) async {
        let environment = launch.environment
        let files = environment.files
        var migration = NotesMigration(
            defaults: .standard, settingsURL: environment.home.appendingPathComponent(NotesMigration.settingsPath),
            readFile: { try files.read($0) }, writeFile: { try files.write($0, to: $1) }, fileExists: { files.fileExists($0) })
        migration.removeBeforeWrite = removeBeforeWrite
        let available = await environment.protectedData.waitUntilAvailable(timeout: environment.protectedDataTimeout)
        let (state, steps) = migration.run(protectedDataAvailable: available)
        for step in steps {
            let result: ItemResult =
                switch step.outcome {
                case .moved: .written
                case .kept: .kept
                case .failed: .failed
                case .removed: .removed
                }
            launch.record(step.label, StoreLocation(rawValue: step.store) ?? .file, step.operation, step.status, result)
        }
        launch.setMigration(MigrationOutcome(state: MigrationState(rawValue: state.rawValue) ?? .failed))
    }
}
