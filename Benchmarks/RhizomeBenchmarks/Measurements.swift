import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Time, percentiles and memory, shared by the benchmarks.
enum Measurements {
    static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

    /// `sorted` must be sorted ascending.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    static func peakResidentMegabytes() -> Double {
        let usage = resourceUsage()
        #if canImport(Darwin)
        return Double(usage.ru_maxrss) / 1_048_576
        #else
        return Double(usage.ru_maxrss) / 1024
        #endif
    }

    /// Linux: VmRSS from /proc; elsewhere the peak is the best available figure.
    static func currentResidentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return peakResidentMegabytes() }
        return kilobytes / 1024
    }

    /// User plus system CPU time of this process.
    static func cpuSeconds() -> Double {
        let usage = resourceUsage()
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    private static func resourceUsage() -> rusage {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #endif
        return usage
    }
}
