import Foundation
import Strategies

/// `loadgen completions bash|zsh|fish`: shell completions made from the command table, so that
/// a new option completes the day it is added.
///
/// Each option's value completes as what it is (`ValueCompletion`): files for a path, folders
/// for a folder, the closed set of words a flag takes (strategies, formats, requirements),
/// continued after a comma where the flag takes a list (`--strategy batch,con<TAB>`), and
/// nothing for free text: help's placeholders (`PATH`, `ATTRIBUTE[+ATTRIBUTE]`) are never
/// offered as words. Operands complete as files where a command reads results files.
///
/// bash gets a completion function; zsh gets the same function through `bashcompinit` (zsh's
/// documented bridge) in a file that works from `$fpath` as `_loadgen` or sourced; fish gets
/// `complete` lines with each option's help as its description.
enum Completions {
    static let shells = ["bash", "zsh", "fish"]

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen completions bash|zsh|fish", about: "Print shell completions for loadgen.",
                    specs: [],
                    footer: "Example: loadgen completions bash > /usr/share/bash-completion/completions/loadgen\n"
                        + "         loadgen completions zsh > \"${fpath[1]}/_loadgen\"\n"
                        + "         loadgen completions fish > ~/.config/fish/completions/loadgen.fish\n"
                        + "(scripts/install puts all three where each shell looks.)"),
                terminator: "")
            return ExitCode.success
        }
        guard arguments.count == 1, let shell = arguments.first, shells.contains(shell) else {
            throw CommandError.usage("completions: give one shell: loadgen completions bash, zsh or fish")
        }
        print(shell == "fish" ? fish() : shell == "zsh" ? zsh() : bash(), terminator: "")
        return ExitCode.success
    }

    // MARK: What a value completes as

    /// What a shell offers for an option's value.
    enum ValueCompletion: Equatable {
        /// Free text (a number, an attribute's name): nothing is offered.
        case none
        /// One of these words; with `list`, a comma list continues after each comma.
        case words([String], list: Bool)
        /// A file path, or one of these words (`-`, `memory`).
        case files(also: [String])
        case folders
    }

    static func completion(of spec: OptionSpec) -> ValueCompletion {
        guard let value = spec.value else { return .none }
        let sweeps = RunParameter.named(spec.name)?.sweeps ?? false
        if spec.name == "--strategy" || spec.completions != nil {
            return .words(CommandTable.values(of: spec) ?? [], list: sweeps)
        }
        let alternatives = value.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: "|").map(
            String.init)
        let isPath = { (word: String) in word.contains("PATH") || word.contains("FILE") || word == "BINARY" }
        if alternatives.contains(where: isPath) { return .files(also: alternatives.filter(isLiteral)) }
        if alternatives.contains("DIR") { return .folders }
        // "unique,links,screen|none": the first alternative is itself a list of words.
        let listed = alternatives.first {
            $0.contains(",") && $0.split(separator: ",").allSatisfy { isLiteral(String($0)) }
        }
        let words = (listed.map { $0.split(separator: ",").map(String.init) } ?? []) + alternatives.filter(isLiteral)
        return words.isEmpty ? .none : .words(words, list: sweeps || listed != nil)
    }

    /// A word typed as it is (`none`, `first-wins`, `-`), not a placeholder (`N`, `NAME[.KEY]`, `list:N`).
    private static func isLiteral(_ word: String) -> Bool {
        word == "-"
            || (word.first?.isLowercase == true && word.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
    }

    // MARK: bash and zsh

    static func bash() -> String {
        "# loadgen \(LoadGen.version) completions for bash: loadgen completions bash\n"
            + functions(prefix: "_loadgen") + "complete -F _loadgen loadgen\n"
    }

    /// From `$fpath` zsh runs this file as the body of `_loadgen` at the first TAB: it defines the
    /// bash-style function, registers it, and completes that first word too; sourced, it only
    /// registers.
    static func zsh() -> String {
        """
        #compdef loadgen
        # loadgen \(LoadGen.version) completions for zsh: save as _loadgen in a folder of $fpath (or source it)
        autoload -U +X bashcompinit && bashcompinit

        """
            + functions(prefix: "__loadgen_bash") + """
                complete -F __loadgen_bash loadgen
                if [[ ${funcstack[1]} == _loadgen ]]; then _bash_complete -F __loadgen_bash; fi

                """
    }

    /// The completion function `prefix` and its helpers, in the shell language bash and zsh's
    /// `bashcompinit` share.
    private static func functions(prefix f: String) -> String {
        var text = """
            \(f)_words() {
              local prefix="" word="$cur"
              if [ "$2" = list ]; then case "$cur" in *,*) prefix="${cur%,*},"; word="${cur##*,}" ;; esac; fi
              COMPREPLY=($(compgen -P "$prefix" -W "$1" -- "$word"))
              if [ "$2" = list ]; then compopt -o nospace 2>/dev/null; fi
            }
            \(f)_files() {
              local IFS=$'\\n'
              COMPREPLY=($(compgen -f -- "$cur") $(compgen -W "${1// /$'\\n'}" -- "$cur"))
              compopt -o filenames 2>/dev/null
            }
            \(f)_folders() {
              local IFS=$'\\n'
              COMPREPLY=($(compgen -d -- "$cur"))
              compopt -o filenames 2>/dev/null
            }
            \(f)() {
              local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
              COMPREPLY=()
              if [ "$COMP_CWORD" -eq 1 ]; then \(f)_words "\(CommandTable.all.map(\.name).joined(separator: " ")) help"; return; fi
              case "${COMP_WORDS[1]}" in

            """
        for entry in CommandTable.all {
            let specs = entry.specs()
            text += "    \(entry.name))\n      case \"$prev\" in\n"
            for spec in specs where spec.value != nil {
                text += "        \(spec.name)) " + bashValue(completion(of: spec), prefix: f) + "; return ;;\n"
            }
            text += "      esac\n"
            let options = (specs.map(\.name) + ["--help"]).joined(separator: " ")
            let operands: String
            switch entry.operands {
            case .none: operands = "\(f)_words \"\(options)\""
            case .files: operands = "\(f)_files \"\""
            case .words(let words): operands = "\(f)_words \"\(words.joined(separator: " "))\""
            }
            text += "      case \"$cur\" in -*) \(f)_words \"\(options)\" ;; *) \(operands) ;; esac ;;\n"
        }
        text += """
                help) \(f)_words "\(CommandTable.all.map(\.name).joined(separator: " "))" ;;
              esac
            }

            """
        return text
    }

    private static func bashValue(_ completion: ValueCompletion, prefix f: String) -> String {
        switch completion {
        case .none: return ":"
        case .words(let words, let list):
            return "\(f)_words \"\(words.joined(separator: " "))\"" + (list ? " list" : "")
        case .files(let also): return "\(f)_files \"\(also.joined(separator: " "))\""
        case .folders: return "\(f)_folders"
        }
    }

    // MARK: fish

    static func fish() -> String {
        var text = """
            # loadgen \(LoadGen.version) completions for fish: loadgen completions fish
            # A comma list continues after its last comma (--strategy batch,con<TAB>).
            function __loadgen_list
                set -l prefix (string match -r -- '^.*,' (commandline -ct))
                or set prefix ''
                for word in $argv
                    echo $prefix$word
                end
            end
            complete -c loadgen -f

            """
        for entry in CommandTable.all {
            text += "complete -c loadgen -n __fish_use_subcommand -a \(entry.name) -d \(quoted(entry.summary))\n"
        }
        text += "complete -c loadgen -n __fish_use_subcommand -a help -d \(quoted("a command's options"))\n"
        for entry in CommandTable.all {
            let when = "-n '__fish_seen_subcommand_from \(entry.name)'"
            for spec in entry.specs() {
                var line = "complete -c loadgen \(when) -l \(spec.name.dropFirst(2))"
                switch completion(of: spec) {
                case .none: line += spec.value == nil ? "" : " -x"
                case .words(let words, let list):
                    line +=
                        list
                        ? " -x -a \(quoted("(__loadgen_list \(words.joined(separator: " ")))"))"
                        : " -x -a \(quoted(words.joined(separator: " ")))"
                case .files(let also):
                    line += " -r -F" + (also.isEmpty ? "" : " -a \(quoted(also.joined(separator: " ")))")
                case .folders: line += " -r -a \(quoted("(__fish_complete_directories)"))"
                }
                text += line + " -d \(quoted(spec.help))\n"
            }
            switch entry.operands {
            case .none: break
            case .files: text += "complete -c loadgen \(when) -F\n"
            case .words(let words): text += "complete -c loadgen \(when) -a \(quoted(words.joined(separator: " ")))\n"
            }
        }
        text +=
            "complete -c loadgen -n '__fish_seen_subcommand_from help' -a \(quoted(CommandTable.all.map(\.name).joined(separator: " ")))\n"
        return text
    }

    /// A single-quoted fish word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
