import Foundation

/// `loadgen completions bash|zsh|fish`: shell completions made from the command table, so that
/// a new option completes the day it is added.
///
/// bash gets a completion function; zsh loads the same through `bashcompinit` (zsh's own
/// documented bridge); fish gets `complete` lines with each option's help as its description.
enum Completions {
    static let shells = ["bash", "zsh", "fish"]

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(Help.render(usage: "loadgen completions bash|zsh|fish", about: "Print shell completions for loadgen.", specs: [],
                              footer: "Example: loadgen completions bash > /etc/bash_completion.d/loadgen\n"
                                + "         loadgen completions fish > ~/.config/fish/completions/loadgen.fish"),
                  terminator: "")
            return ExitCode.success
        }
        guard arguments.count == 1, let shell = arguments.first, shells.contains(shell) else {
            throw CommandError.usage("completions: give one shell: loadgen completions bash, zsh or fish")
        }
        print(shell == "fish" ? fish() : bash(zsh: shell == "zsh"), terminator: "")
        return ExitCode.success
    }

    // MARK: bash and zsh

    static func bash(zsh: Bool) -> String {
        var text = "# loadgen \(LoadGen.version) completions for \(zsh ? "zsh" : "bash"): loadgen completions \(zsh ? "zsh" : "bash")\n"
        if zsh { text += "autoload -U +X bashcompinit && bashcompinit\n" }
        text += """
            _loadgen() {
              local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
              if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(CommandTable.all.map(\.name).joined(separator: " ")) help" -- "$cur")); return
              fi
              case "${COMP_WORDS[1]}" in

            """
        for entry in CommandTable.all {
            let specs = entry.specs()
            let values = specs.compactMap { spec in CommandTable.values(of: spec).map { (spec.name, $0) } }
            text += "    \(entry.name))\n      case \"$prev\" in\n"
            for (name, list) in values {
                text += "        \(name)) COMPREPLY=($(compgen -W \"\(list.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            }
            if entry.name == "completions" {
                text += "        completions) COMPREPLY=($(compgen -W \"\(shells.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            }
            text += "      esac\n"
            text += "      COMPREPLY=($(compgen -W \"\((specs.map(\.name) + ["--help"]).joined(separator: " "))\" -- \"$cur\")) ;;\n"
        }
        text += """
                help) COMPREPLY=($(compgen -W "\(CommandTable.all.map(\.name).joined(separator: " "))" -- "$cur")) ;;
              esac
            }
            complete -o default -F _loadgen loadgen

            """
        return text
    }

    // MARK: fish

    static func fish() -> String {
        var text = "# loadgen \(LoadGen.version) completions for fish: loadgen completions fish\n"
        text += "complete -c loadgen -f\n"
        for entry in CommandTable.all {
            text += "complete -c loadgen -n __fish_use_subcommand -a \(entry.name) -d \(quoted(entry.summary))\n"
        }
        text += "complete -c loadgen -n __fish_use_subcommand -a help -d \(quoted("a command's options"))\n"
        for entry in CommandTable.all {
            for spec in entry.specs() {
                var line = "complete -c loadgen -n '__fish_seen_subcommand_from \(entry.name)' -l \(spec.name.dropFirst(2))"
                if let values = CommandTable.values(of: spec) {
                    line += " -x -a \(quoted(values.joined(separator: " ")))"
                } else if spec.value != nil {
                    line += " -r -F"
                }
                text += line + " -d \(quoted(spec.help))\n"
            }
        }
        text += "complete -c loadgen -n '__fish_seen_subcommand_from completions' -a \(quoted(shells.joined(separator: " ")))\n"
        return text
    }

    /// A single-quoted fish word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
