#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failpoint for the kill tests of journaled changes: with `RHIZOME_CRASH_POINT=N` in the environment,
/// the N-th call of `hit()` in the process kills it with SIGKILL, as a power cut or `kill -9` would.
/// Without the variable it does nothing but count.
public enum CrashPoint {
    private static let target: Int? = getenv("RHIZOME_CRASH_POINT").flatMap { Int(String(cString: $0)) }
    // Journaled changes run on one thread; the count is only read where the variable is set (tests).
    nonisolated(unsafe) private static var count = 0

    public static func hit() {
        guard let target else { return }
        count += 1
        if count == target { kill(getpid(), SIGKILL) }
    }
}
