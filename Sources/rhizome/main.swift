import Foundation
import RhizomeCLI
#if canImport(CJemalloc)
import CJemalloc  // links jemalloc as the process's allocator (Package.swift)
#endif

exit(CLI.run(Array(CommandLine.arguments.dropFirst()), context: .live()))
