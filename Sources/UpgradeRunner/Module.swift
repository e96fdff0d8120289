// UpgradeRunner: command logic of the upgrade-runner CLI. Work in progress.
