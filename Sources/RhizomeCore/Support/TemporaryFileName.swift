#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of the temporary files Rhizome writes beside notes, in one place: those it makes, and the
/// test of whether a name found in the vault is one of them (the only files Rhizome ever deletes on its
/// own, when a killed run left them behind: see `LeftoverSweeper`).
///
/// - `.rhizome-<pid>-<random>.tmp`: `AtomicFileWriter`'s own (pid in decimal, random in base 36).
/// - `.rhizome-op-<operation id>-<step>.tmp`: a journaled change's (`OperationJournal`), whose id is
///   ten base-36 digits of milliseconds, `-`, a random base-36 number; step in decimal.
///
/// Both start with `.`, so neither the walk nor the watcher takes them for vault files.
public enum TemporaryFileName {
    /// A fresh name for `AtomicFileWriter`.
    public static func random() -> String {
        ".rhizome-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 36)).tmp"
    }

    /// The name of a journaled step's temporary file (the journal knows it, so a recovery removes it).
    public static func journaled(operation id: String, step: Int) -> String {
        ".rhizome-op-\(id)-\(step).tmp"
    }

    /// What a name found on disk is.
    public enum Kind: Hashable, Sendable {
        /// `AtomicFileWriter`'s, left by a process that was killed between writing it and renaming it.
        case writer
        /// A journaled change's step: its operation may still be pending.
        case journaled(operationID: String)
    }

    /// Which of Rhizome's temporary files `name` is, exactly by the patterns above; nil for any other
    /// name, however alike (`.rhizome-notes.tmp`, `.rhizome-1-a.tmp~`).
    public static func kind(of name: some Collection<UInt8>) -> Kind? {
        let name = Array(name)
        let prefix = Array(".rhizome-".utf8), suffix = Array(".tmp".utf8)
        guard name.count > prefix.count + suffix.count, name.starts(with: prefix), name.suffix(suffix.count).elementsEqual(suffix) else {
            return nil
        }
        let parts = name[prefix.count..<(name.count - suffix.count)].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        if parts.count == 2, isNumber(parts[0]), isBase36(parts[1], lengths: 1...7) {
            return .writer
        }
        if parts.count == 4, parts[0].elementsEqual("op".utf8), isBase36(parts[1], lengths: 10...10), isBase36(parts[2], lengths: 1...7),
           isNumber(parts[3]) {
            return .journaled(operationID: String(decoding: parts[1], as: UTF8.self) + "-" + String(decoding: parts[2], as: UTF8.self))
        }
        return nil
    }

    private static func isNumber(_ part: ArraySlice<UInt8>) -> Bool {
        (1...10).contains(part.count) && part.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isBase36(_ part: ArraySlice<UInt8>, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(part.count)
            && part.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }
}
