#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with POSIX calls, refusing ones over a size limit before reading them.
public enum FileReader {
    public enum Failure: Error, Sendable, Equatable {
        case tooLarge(size: Int64)
        case unreadable(reason: String, isGone: Bool)
    }

    public static func read(_ path: DiskPath, maxBytes: Int64) -> Result<[UInt8], Failure> {
        // O_NONBLOCK: a FIFO swapped in since the walk must not block the open.
        let descriptor = path.bytes.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { return .failure(.unreadable(reason: errnoDescription(), isGone: errno == ENOENT)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(reason: errnoDescription(), isGone: false)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable(reason: "not a regular file any more", isGone: false)) }
        let size = Int64(status.st_size)
        guard size <= maxBytes else { return .failure(.tooLarge(size: size)) }
        var buffer = [UInt8](repeating: 0, count: Int(size))
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw in
                systemRead(descriptor, raw.baseAddress! + total, raw.count - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(reason: errnoDescription(), isGone: false))
            }
            if count == 0 { break }  // the file shrank while we read it
            total += count
        }
        if total < buffer.count { buffer.removeLast(buffer.count - total) }
        // The file may have grown since fstat; read the rest (bounded by the limit).
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Int64(buffer.count) <= maxBytes {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.append(contentsOf: chunk[0..<count])
        }
        guard Int64(buffer.count) <= maxBytes else { return .failure(.tooLarge(size: Int64(buffer.count))) }
        return .success(buffer)
    }
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, pointer, count)
}
