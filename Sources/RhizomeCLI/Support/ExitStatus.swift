/// Process exit statuses (as SwiftFormat and sysexits use them).
public enum ExitStatus: Int32, Sendable {
    /// Success, nothing to report.
    case success = 0
    /// The vault has the problems the command was asked to find (unresolved links, error findings).
    case problemsFound = 1
    /// Bad command-line input, or a vault/note that cannot be found.
    case usage = 2
    /// Rhizome itself failed (database error, unreadable vault, bug).
    case internalFailure = 70
}
