import Foundation
import Strategies

/// One option a command accepts.
struct OptionSpec: Sendable {
    let name: String
    /// What the value is called in help (`N`, `PATH`); nil for a flag that takes no value.
    let value: String?
    let help: String
    /// The value used when the option is absent, as help shows it (nil: none, or a flag).
    let defaultText: String?
    /// The value an option takes when given without one (`--history` alone is `--history on`);
    /// nil when it needs a value.
    var impliedValue: String? = nil
    /// The words a shell offers for its value, where `value` cannot list them (`--format NAME`).
    var completions: [String]? = nil

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help, defaultText: nil)
    }
    static func option(
        _ name: String, _ value: String, _ help: String, default defaultText: String? = nil,
        implied: String? = nil, completions: [String]? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, value: value, help: help, defaultText: defaultText, impliedValue: implied,
            completions: completions)
    }
}

/// The options of one command line, checked against the command's specs, with typed readers
/// whose errors name the flag and the values it accepts.
struct Arguments {
    let command: String
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    /// Arguments that are not options (file names for `compare`).
    private(set) var positional: [String] = []

    /// Parses `arguments` (after the command name). `--name value` and `--name=value` both work.
    init(command: String, arguments: [String], specs: [OptionSpec]) throws {
        self.command = command
        let byName = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0) })
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if argument.hasPrefix("-") && argument.count > 1 {
                    throw CommandError.usage(
                        "\(command): unknown option '\(argument)'; see 'loadgen \(command) --help'")
                }
                positional.append(argument)
                continue
            }
            var name = argument
            var inline: String?
            if let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            guard let spec = byName[name] else {
                let hint = Self.closest(to: name, in: specs.map(\.name)).map { "; did you mean \($0)?" } ?? ""
                throw CommandError.usage(
                    "\(command): unknown option '\(name)'\(hint) (see 'loadgen \(command) --help')")
            }
            if spec.value == nil {
                guard inline == nil else { throw CommandError.usage("\(command): \(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if i < arguments.count, !(arguments[i].hasPrefix("--") && arguments[i].count > 2) {
                value = arguments[i]
                i += 1
            } else if let implied = spec.impliedValue {
                value = implied
            } else {
                throw CommandError.usage("\(command): \(name) needs a value (\(spec.value!))")
            }
            guard values[name] == nil else { throw CommandError.usage("\(command): \(name) given twice") }
            values[name] = value
        }
    }

    // MARK: Reading values

    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }
    func flag(_ name: String) -> Bool { flags.contains(name) }
    func string(_ name: String) -> String? { values[name] }

    /// A whole number in `range`, or the default when absent.
    func int(_ name: String, default fallback: Int? = nil, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = values[name] else { return fallback }
        guard let value = Self.parseInt(text), range.contains(value) else {
            throw CommandError.usage(
                "\(command): \(name) expects a whole number from \(range.lowerBound) to "
                    + "\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// A duration in seconds: a number with `s`, `m` or `h` (`90s`, `5m`), or seconds alone,
    /// from one second to a day; the default when absent.
    func duration(_ name: String, default fallback: Double) throws -> Double {
        guard let text = values[name] else { return fallback }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        let unit = text.last.flatMap { units[$0] }
        let number = Double(unit == nil ? Substring(text) : text.dropLast())
        guard let number, number.isFinite, (1...86_400).contains(number * (unit ?? 1)) else {
            throw CommandError.usage(
                "\(command): \(name) expects a duration from 1s to 24h (90s, 5m, 1h), got '\(text)'")
        }
        return number * (unit ?? 1)
    }

    /// A number in `range`, or the default when absent. `upperOpen` excludes the upper bound.
    func double(
        _ name: String, default fallback: Double? = nil, in range: ClosedRange<Double>,
        upperOpen: Bool = false, describe: String? = nil
    ) throws -> Double? {
        guard let text = values[name] else { return fallback }
        let value = Double(text)
        guard let value, value.isFinite, range.contains(value), !(upperOpen && value == range.upperBound) else {
            let accepted = describe ?? "a number from \(range.lowerBound) to \(range.upperBound)"
            throw CommandError.usage("\(command): \(name) expects \(accepted), got '\(text)'")
        }
        return value
    }

    /// One of `choices`, or the default when absent.
    func choice(_ name: String, _ choices: [String], default fallback: String) throws -> String {
        guard let text = values[name] else { return fallback }
        guard choices.contains(text) else {
            throw CommandError.usage(
                "\(command): \(name) expects one of \(choices.joined(separator: "|")), got '\(text)'")
        }
        return text
    }

    /// Accepts 100000, 100_000, 100k, 1M (what people type for row counts).
    static func parseInt(_ text: String) -> Int? { RunParameter.parseInteger(text) }

    /// Refuses words that are not options, for a command that takes none.
    func refusePositional() throws {
        if let word = positional.first {
            throw CommandError.usage(
                "\(command): unexpected argument '\(word)'; options start with -- (see 'loadgen \(command) --help')")
        }
    }

    /// The option nearest to a mistyped one, when it is close enough to be a typo.
    static func closest(to name: String, in names: [String]) -> String? { Nearest.word(to: name, in: names) }
}

/// Renders a command's help from its specs.
enum Help {
    static func render(usage: String, about: String, specs: [OptionSpec], footer: String = "") -> String {
        var text = "\(about)\n\nUsage: \(usage)\n\nOptions:\n"
        let width = (specs.map { $0.name.count + ($0.value.map { $0.count + 3 } ?? 0) } + ["--help".count]).max()!
        for spec in specs {
            let left = spec.name + (spec.value.map { spec.impliedValue == nil ? " " + $0 : " [" + $0 + "]" } ?? "")
            text +=
                "  " + left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + spec.help
                + (spec.defaultText.map { " (default: \($0))" } ?? "") + "\n"
        }
        text += "  " + "--help".padding(toLength: width + 2, withPad: " ", startingAt: 0) + "show this help\n"
        return footer.isEmpty ? text : text + "\n" + footer + "\n"
    }
}
