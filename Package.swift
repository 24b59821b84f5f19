// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Rhizome",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "rhizome", targets: ["rhizome"]),
        .library(name: "RhizomeCore", targets: ["RhizomeCore"]),
        .library(name: "RhizomeStore", targets: ["RhizomeStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System C libraries: Debian's libyaml-dev / libsqlite3-dev, Homebrew's libyaml / sqlite.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Linux only: jemalloc (Debian's libjemalloc-dev) as the allocator of the executables. Indexing
        // allocates on the parse workers and frees on the writer; glibc's malloc spent 8% of a first
        // index there (docs/PERFORMANCE.md). macOS keeps its own allocator.
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        // The domain: vault walking, markdown and frontmatter parsing, link resolution, schemas. No storage.
        // The built-in schemas in Schemas/ are compiled in by the EmbedSchemas plugin.
        .target(name: "RhizomeCore", dependencies: ["CYAML"], plugins: ["EmbedSchemas"]),
        // The SQLite index: schema, incremental indexer, graph queries.
        .target(name: "RhizomeStore", dependencies: ["RhizomeCore", "CSQLite"]),
        // The live service: file-system watchers (inotify, FSEvents) and the watcher that keeps the index current.
        .target(name: "RhizomeWatch", dependencies: ["RhizomeCore", "RhizomeStore"]),
        // The MCP server (stdio) over the index, with the watcher in-process.
        .target(
            name: "RhizomeMCP",
            dependencies: [
                "RhizomeCore", "RhizomeStore", "RhizomeWatch", "RhizomeOperations", "RhizomeClaude",
                .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Changes to the vault that CLI and MCP share: link-safe moves, trash, undo, journaled and crash safe.
        .target(name: "RhizomeOperations", dependencies: ["RhizomeCore", "RhizomeStore", "RhizomeWatch", "RhizomeClaude"]),
        // Claude over the vault: the Anthropic Messages API client (HTTPS, SSE streaming, retries).
        .target(name: "RhizomeClaude", dependencies: ["RhizomeCore"]),
        // Command-line interface as a library, so tests drive it in-process.
        .target(
            name: "RhizomeCLI",
            dependencies: [
                "RhizomeCore", "RhizomeStore", "RhizomeWatch", "RhizomeMCP", "RhizomeClaude", "RhizomeOperations",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "rhizome", dependencies: ["RhizomeCLI", .target(name: "CJemalloc", condition: .when(platforms: [.linux]))]),
        // Build-time only: writes Schemas/ into RhizomeCore as BuiltInSchemaFiles.swift.
        .executableTarget(name: "schema-embedder", path: "Sources/SchemaEmbedder"),
        .plugin(
            name: "EmbedSchemas",
            capability: .buildTool(),
            dependencies: ["schema-embedder"],
            path: "Sources/EmbedSchemasPlugin"
        ),
        .executableTarget(
            name: "rhizome-benchmark",
            dependencies: ["RhizomeCore", "RhizomeStore", "RhizomeWatch", "RhizomeOperations", .target(name: "CJemalloc", condition: .when(platforms: [.linux]))],
            path: "Benchmarks/RhizomeBenchmarks"
        ),
        // Temp vaults with real files and symlinks, shared by the test targets.
        .target(name: "RhizomeTestSupport", dependencies: ["RhizomeCore", "RhizomeStore"], path: "Tests/RhizomeTestSupport"),
        .testTarget(name: "RhizomeCoreTests", dependencies: ["RhizomeCore", "RhizomeTestSupport"]),
        .testTarget(name: "RhizomeStoreTests", dependencies: ["RhizomeCore", "RhizomeStore", "RhizomeTestSupport"]),
        .testTarget(name: "RhizomeClaudeTests", dependencies: ["RhizomeClaude", "RhizomeTestSupport"]),
        .testTarget(name: "RhizomeOperationsTests", dependencies: ["RhizomeCore", "RhizomeStore", "RhizomeClaude", "RhizomeOperations", "RhizomeTestSupport"]),
        .testTarget(name: "RhizomeWatchTests", dependencies: ["RhizomeCore", "RhizomeStore", "RhizomeWatch", "RhizomeTestSupport"]),
        .testTarget(
            name: "RhizomeCLITests", dependencies: ["RhizomeCLI", "RhizomeStore", "RhizomeOperations", "RhizomeTestSupport", "rhizome"],
            exclude: ["Snapshots", "Transcripts"]  // read through #filePath, not as a bundle resource
        ),
    ],
    swiftLanguageModes: [.v6]
)
