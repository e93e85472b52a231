import Foundation

/// `loadgen man`: the manual page in roff (man(7)), made from the command table and the exit
/// statuses' table: the same words as `--help`, so the two cannot disagree.
enum ManualPage {
    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen man", about: "Print loadgen's manual page (roff).", specs: [],
                    footer: "Example: loadgen man > loadgen.1 && man ./loadgen.1"), terminator: "")
            return ExitCode.success
        }
        guard arguments.isEmpty else { throw CommandError.usage("man: takes no arguments (loadgen man > loadgen.1)") }
        print(render(), terminator: "")
        return ExitCode.success
    }

    static func render() -> String {
        var text = """
            .TH LOADGEN 1 "" "loadgen \(LoadGen.version)" "User Commands"
            .SH NAME
            loadgen \\- measures Core Data\\(enstyle write strategies on a real SQLite store
            .SH SYNOPSIS
            .B loadgen
            .I command
            .RI [ options ]
            .SH DESCRIPTION
            loadgen tells iOS and macOS teams, with numbers, which Core Data write strategy to use: it runs
            strategies through a Core Data\\(enstyle engine on SQLite and records time, memory, SQL and what the
            store holds.
            .SH COMMANDS

            """
        for entry in CommandTable.all {
            text += ".TP\n.B \(entry.name)\n\(escaped(entry.summary))\n"
        }
        for entry in CommandTable.all where !entry.specs().isEmpty {
            text += ".SH OPTIONS OF \(entry.name.uppercased())\n"
            for spec in entry.specs() {
                text += ".TP\n.B \(escaped(spec.name))" + (spec.value.map { " \\fI\(escaped($0))\\fR" } ?? "") + "\n"
                text += escaped(spec.help) + (spec.defaultText.map { " (default: \(escaped($0)))" } ?? "") + "\n"
            }
        }
        text += ".SH ENVIRONMENT\n"
        for variable in EnvironmentVariables.all {
            text += ".TP\n.B \(escaped(variable.name))\n\(escaped(variable.meaning))\n"
        }
        text += ".SH EXIT STATUS\n"
        for status in ExitCode.documented {
            text += ".TP\n.B \(status.code)\n\(escaped(status.name)): \(escaped(status.meaning))\n"
        }
        text += ".SH SEE ALSO\n.BR sqlite3 (1),\n.BR valgrind (1),\n.BR gnuplot (1)\n"
        return text
    }

    /// Text safe in roff: a backslash doubled, a minus a minus, other than ASCII as `\[uXXXX]`
    /// (troff reads bytes), a line never starting with a dot or a quote.
    static func escaped(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": body += "\\\\"
            case "-": body += "\\-"
            case _ where scalar.isASCII: body.unicodeScalars.append(scalar)
            default: body += "\\[u" + String(format: "%04X", scalar.value) + "]"
            }
        }
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
