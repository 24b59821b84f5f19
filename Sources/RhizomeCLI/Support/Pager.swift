import Foundation
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
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        // Rhizome's threads block SIGINT and SIGTERM; the pager gets a clean mask and default actions.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaulted = sigset_t()
        sigemptyset(&defaulted)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGTSTP] { sigaddset(&defaulted, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaulted)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])

        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
        close(ends[0])
        guard status == 0 else {
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
