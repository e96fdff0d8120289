/// The runner's version, recorded in run.json.
public enum UpgradeRunnerVersion {
    public static let current = "0.1.0"
}
