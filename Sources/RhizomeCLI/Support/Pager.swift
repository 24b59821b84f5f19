import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output longer than a screen goes through a pager, as git does it: when standard output is a terminal,
/// a command that lists things (`RhizomeSubcommand.pagesOutput`) writes into `$RHIZOME_PAGER`, else
/// `$PAGER`, else `less`, started by `/bin/sh -c` with `LESS=FRX` unless the user set `LESS` (`F`: quit at
/// once when it fits on one screen; `R`: keep colours; `X`: leave the text on the screen). Never when
/// standard output is a pipe or a file, with `--no-pager`, or when the pager is set to `cat` or empty.
struct Pager {
    private let processID: pid_t

    /// Starts the pager and points standard output at it; nil when output is not paged.
    static func start(context: CommandContext) -> Pager? {
        guard context.standardOutput === OutputSink.standardOutput, isatty(1) == 1 else { return nil }
        let command = (context.environment["RHIZOME_PAGER"] ?? context.environment["PAGER"] ?? "less").trimmingCharacters(in: .whitespaces)
        guard !command.isEmpty, command != "cat" else { return nil }
        var environment = context.environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        if environment["LV"] == nil { environment["LV"] = "-c" }

        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        // Rhizome's threads block SIGINT and SIGTERM; the pager gets a clean mask and default actions, and
        // stays in the terminal's foreground group (it reads the keyboard).
        let child = try? ProcessSpawn.start(
            "/bin/sh", arguments: ["-c", command], environment: environment,
            fileActions: [.duplicate(ends[0], as: 0), .close(ends[0]), .close(ends[1])],
            defaultedSignals: [SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGTSTP], ownProcessGroup: false)
        close(ends[0])
        guard let child else {
            close(ends[1])
            return nil  // no pager: the output goes to the terminal as it would have
        }
        dup2(ends[1], 1)
        close(ends[1])
        return Pager(processID: child)
    }

    /// Closes the pager's input and waits until the user quits it.
    func finish() {
        // Standard output now reads from /dev/null's side: nothing more reaches the pager, which sees the end.
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, 1)
            close(null)
        } else {
            close(1)
        }
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
    }
}
