import Foundation
import GateExecution
import GateModel
import SimDevice

enum DeviceAdvanceClock {
    static let durationArgument = ArgumentSpec(
        "DURATION", "How far, such as 31d, 12h, 90m, 45s or 1d12h; a leading - goes back.", optional: true)
    static let spec = CommandSpec(
        ["device", "advance-clock"], summary: "Move a device's clock forward (or set it).",
        arguments: [
            CommonOptions.device,
            durationArgument,
        ],
        options: [Options.to, CommonOptions.devicesRoot],
        discussion:
            "The device clock does not run on its own: every launch sees the date in device.json, and this\ncommand moves it (for the 30-day artefact window). Prints the new clock."
    )

    /// The options of `device advance-clock`, read once.
    struct Options {
        static let to = OptionSpec("--to", value: "DATE", "Set the clock to this ISO 8601 date instead.")

        /// `--to` as given (parsed when the clock is set, after DURATION is checked).
        var target: String?
        var devices: DevicesRoot

        init(_ options: OptionValues) {
            target = options.value(Self.to)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let duration = invocation.optionalArgument(durationArgument)
        let target = options.target
        guard (duration == nil) != (target == nil) else {
            throw UsageError.missingArgument("DURATION or --to DATE (one of them)", command: spec.name)
        }
        let session = try options.devices.session(invocation)
        if let target {
            try session.setClock(try ClockText.parse(target, for: "--to"))
        } else if let duration {
            try session.advanceClock(by: try parseDuration(duration))
        }
        invocation.console.output("\(session.udid): clock \(ClockText.format(session.record.clock))")
        return ExitStatus.pass
    }

    /// `31d`, `12h`, `90m`, `45s`, `1d12h`, `-2d`: seconds.
    static func parseDuration(_ text: String) throws(UsageError) -> TimeInterval {
        let invalid = UsageError.invalidValue(
            text, for: "DURATION", reason: "is not a duration such as 31d, 12h, 90m, 45s or 1d12h")
        var body = Substring(text)
        let sign: Double = body.hasPrefix("-") ? -1 : 1
        if body.hasPrefix("-") || body.hasPrefix("+") { body = body.dropFirst() }
        guard !body.isEmpty else { throw invalid }
        var total: Double = 0
        var number = ""
        for character in body {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "w": unit = 7 * 86_400
            case "d": unit = 86_400
            case "h": unit = 3_600
            case "m": unit = 60
            case "s": unit = 1
            default: throw invalid
            }
            guard let value = Double(number) else { throw invalid }
            total += value * unit
            number = ""
        }
        guard number.isEmpty else { throw invalid }
        return sign * total
    }
}
