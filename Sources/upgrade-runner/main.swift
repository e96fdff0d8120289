import Foundation
import UpgradeRunner

FileHandle.standardError.write(Data("upgrade-runner: not implemented yet\n".utf8))
exit(2)
