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
        // Read straight into the array's storage (no zero-filling first: 70 MB for a 10k-note vault).
        var readError: Int32? = nil
        var buffer = [UInt8](unsafeUninitializedCapacity: Int(size)) { storage, initialized in
            var total = 0
            while total < storage.count, let base = storage.baseAddress {
                let count = systemRead(descriptor, base + total, storage.count - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    readError = errno
                    break
                }
                if count == 0 { break }  // the file shrank while we read it
                total += count
            }
            initialized = total
        }
        if let readError { return .failure(.unreadable(reason: String(cString: strerror(readError)), isGone: false)) }
        // The file may have grown since fstat; read the rest (bounded by the limit). Usually the first
        // read finds the end at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16_384) { chunk in
            while Int64(buffer.count) <= maxBytes, let base = chunk.baseAddress {
                let count = systemRead(descriptor, base, chunk.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    readError = errno  // a failed read is not the end of the file
                    break
                }
                guard count > 0 else { break }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<count]))
            }
        }
        if let readError { return .failure(.unreadable(reason: String(cString: strerror(readError)), isGone: false)) }
        guard Int64(buffer.count) <= maxBytes else { return .failure(.tooLarge(size: Int64(buffer.count))) }
        return .success(buffer)
    }
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, pointer, count)
}
