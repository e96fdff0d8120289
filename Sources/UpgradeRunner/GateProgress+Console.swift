import GateExecution

extension GateProgress {
    /// A reporter for `console`: live on a terminal, plain lines elsewhere, nothing when `quiet`.
    convenience init(console: Console, quiet: Bool) {
        self.init(style: quiet ? .quiet : console.errorIsTerminal ? .live : .lines) { console.error($0, terminator: "") }
    }
}
