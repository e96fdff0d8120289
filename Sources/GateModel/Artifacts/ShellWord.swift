import Foundation

/// A value as one word of a POSIX shell command line, for the command lines the runner writes
/// (summary.md's rerun lines, the launch lines of kept devices).
public enum ShellWord {
    /// `word` as it is when it needs no quoting (letters, digits and `/._-+:,=@%`), else in single
    /// quotes (a `'` in it as `'\''`).
    public static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+:,=@%".unicodeScalars.contains($0))
        }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
