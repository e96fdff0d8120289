import Foundation
import UpgradeRunner

exit(UpgradeRunner.main(CommandLine.arguments))
