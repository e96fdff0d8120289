// The baseline for launch benchmarks: a Foundation binary that only exits.
import Foundation

exit(0)
