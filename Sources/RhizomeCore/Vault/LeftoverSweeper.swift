#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the temporary files a killed Rhizome process left in the vault, which sync tools and git would
/// otherwise see for good. The walk lists them (`VaultScan.temporaryFiles`: only names that are exactly
/// Rhizome's own, see `TemporaryFileName`); a walk of the whole vault (`rhizome index`, every command's
/// refresh, a watcher's walk) sweeps them.
///
/// Rhizome deletes only files it created itself, and only when nobody can still need them:
/// - a file younger than `minimumAge` may belong to a write in progress in another process: kept;
/// - a journaled change's file is kept while the journal has a change pending (its recovery, which the
///   next command runs, removes and rewrites those files itself).
/// Each removal is a finding (`leftover-temporary-file`) in the run's report.
public enum LeftoverSweeper {
    /// How old a temporary file must be to count as left over: no write of Rhizome keeps one that long.
    public static let minimumAge: Duration = .seconds(60)

    /// Removes the left-over files among `files`; `now` in nanoseconds since 1970, as file times are.
    /// Returns a finding for each file removed (or that could not be).
    public static func sweep(_ files: [TemporaryFileFound], now: Int64, journalHasPendingChange: Bool) -> [Finding] {
        var findings: [Finding] = []
        let minimumNanoseconds = minimumAge.components.seconds * 1_000_000_000
        for file in files {
            guard now - file.modificationTime >= minimumNanoseconds else { continue }
            if case .journaled = file.kind, journalHasPendingChange { continue }
            let age = describe(ageInSeconds: (now - file.modificationTime) / 1_000_000_000)
            if file.diskPath.bytes.withCString({ unlink($0) }) == 0 || errno == ENOENT {
                findings.append(Finding(
                    code: .leftoverTemporaryFile, severity: .info,
                    message: "removed a leftover temporary file (written by a Rhizome process that did not finish, \(age) ago)",
                    path: file.path))
            } else {
                findings.append(Finding(
                    code: .leftoverTemporaryFile, severity: .warning,
                    message: "could not remove a leftover temporary file of Rhizome (\(errnoDescription()))",
                    path: file.path, fix: "delete it: it holds no note, only a copy Rhizome did not finish writing"))
            }
        }
        return findings
    }

    private static func describe(ageInSeconds seconds: Int64) -> String {
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7_200 { return "\(seconds / 60) min" }
        if seconds < 172_800 { return "\(seconds / 3_600) h" }
        return "\(seconds / 86_400) days"
    }
}

/// A file the walk found whose name is one of Rhizome's temporary names.
public struct TemporaryFileFound: Sendable, Hashable {
    /// Vault-relative, `/`-separated.
    public var path: String
    public var diskPath: DiskPath
    /// Nanoseconds since 1970.
    public var modificationTime: Int64
    public var kind: TemporaryFileName.Kind

    public init(path: String, diskPath: DiskPath, modificationTime: Int64, kind: TemporaryFileName.Kind) {
        self.path = path
        self.diskPath = diskPath
        self.modificationTime = modificationTime
        self.kind = kind
    }
}
