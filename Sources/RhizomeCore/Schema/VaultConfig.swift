#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A vault's Rhizome settings, from `.rhizome/config.yaml` (all optional; absent file = defaults).
public struct VaultConfig: Sendable {
    /// The newest config version this Rhizome reads.
    public static let supportedVersion = 1
    /// Where the config lives, relative to the vault.
    public static let relativePath = ".rhizome/config.yaml"
    static let keys = ["version", "schemas", "exclude", "types", "typeKey", "claudeCode", "claude"]

    /// The vault's schema folder, vault-relative.
    public var schemaFolder = ".rhizome/schemas"
    /// Whether the config names the schema folder (then it must exist).
    public var schemaFolderIsExplicit = false
    /// Notes that `validate` and `fix` leave alone. By default `Templates/**`: templates hold
    /// placeholders (`{{date}}`) that are not valid values yet.
    public var exclude: [PathGlob] = [PathGlob("Templates/**")]
    /// The vault folder that holds Claude Code's agents, skills and plans (`rhizome link`).
    public var claudeCodeFolder = "ClaudeCode"
    /// `type:` values that mean a schema type (`meeting: session`).
    public var typeMappings: [String: String] = [:]
    /// The frontmatter key whose value names a note's type (`typeKey: kind`), for vaults that use `type`
    /// for something else. Schemas still call it `type`: their `type` property describes this key.
    public var typeKey = "type"
    /// Settings of `explore` and `reflect` (`claude:`): models, limits, prompts, a monthly budget.
    public var claude = ClaudeSettings()
    /// The file's text, part of the schema fingerprint; nil when there is no config file.
    public var sourceText: String?

    public init() {}

    /// Whether validation leaves `path` alone.
    public func isExcluded(_ path: String) -> Bool {
        exclude.contains { $0.matches(path) }
    }

    /// Reads `.rhizome/config.yaml` under `vaultRoot`; defaults when it does not exist.
    public static func load(vaultRoot: String) throws(SchemaError) -> VaultConfig {
        let path = vaultRoot + "/" + relativePath
        guard let text = try SchemaFileAccess.readIfPresent(path) else { return VaultConfig() }
        return try parse(text, file: relativePath)
    }

    /// Parses a config file's text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(SchemaError) -> VaultConfig {
        var config = VaultConfig()
        config.sourceText = text
        let root: FrontmatterNode
        var copy = text
        let (result, duplicates) = copy.withUTF8 { YAMLParser.parseReportingDuplicates($0, lineOffset: 0) }
        switch result {
        case .failure(let error):
            throw SchemaError(.invalidConfig, file: file, line: error.line, column: error.column, message: "invalid YAML: \(error.message)")
        case .success(nil):
            return config
        case .success(let node?):
            root = node
        }
        if let duplicate = duplicates.first {
            throw SchemaError(
                .invalidConfig, file: file, line: duplicate.line, column: duplicate.column,
                message: "the key `\(duplicate.key)` is written twice", fix: "keep one `\(duplicate.key)`")
        }
        guard case .map(let entries) = root.value else {
            throw SchemaError(.invalidConfig, file: file, line: root.line, column: root.column, message: "the config must be `key: value` lines", fix: "see Schemas/README.md")
        }
        let reader = SchemaNodeReader(file: file)
        if let versionEntry = entries.last(where: { $0.key == "version" }) {
            guard case .number(let value, _) = versionEntry.value.value, value >= 1, value.rounded() == value else {
                throw SchemaError(.invalidConfig, file: file, line: versionEntry.value.line, column: versionEntry.value.column, message: "`version` must be a whole number", fix: "write `version: 1`")
            }
            guard Int(value) <= supportedVersion else {
                throw SchemaError(
                    .newerVersion, file: file, line: versionEntry.value.line, column: versionEntry.value.column,
                    message: "config version \(Int(value)) is newer than this Rhizome understands (\(supportedVersion))",
                    fix: "update Rhizome, or write the config in version \(supportedVersion)")
            }
        }
        for entry in entries {
            do throws(SchemaError) {
                switch entry.key {
                case "version": break
                case "schemas":
                    let folder = try reader.string(entry).trimmingSlashes
                    guard !folder.hasPrefix("/"), !folder.isEmpty, VaultPath.normalize(folder) != nil else {
                        throw SchemaError(
                            .invalidConfig, file: file, line: entry.value.line, column: entry.value.column,
                            message: "`schemas: \(folder)` must be a folder inside the vault, relative to it", fix: "write it like `.rhizome/schemas`")
                    }
                    config.schemaFolder = folder
                    config.schemaFolderIsExplicit = true
                case "exclude": config.exclude = try reader.stringList(entry).map(PathGlob.init)
                case "claudeCode":
                    let folder = try reader.string(entry).trimmingSlashes
                    guard !folder.isEmpty, !folder.hasPrefix("/"), VaultPath.normalize(folder) == folder else {
                        throw SchemaError(
                            .invalidConfig, file: file, line: entry.value.line, column: entry.value.column,
                            message: "`claudeCode: \(folder)` must be a folder inside the vault, relative to it", fix: "write it like `ClaudeCode`")
                    }
                    config.claudeCodeFolder = folder
                case "typeKey":
                    let key = try reader.string(entry)
                    guard let first = key.first, let last = key.last, !first.isWhitespace, !last.isWhitespace, !key.contains("\n") else {
                        throw SchemaError(
                            .invalidConfig, file: file, line: entry.value.line, column: entry.value.column,
                            message: "`typeKey` must be a frontmatter key, like `kind`", fix: "write `typeKey: kind`, or remove it to use `type`")
                    }
                    config.typeKey = key
                case "types":
                    for mapping in try reader.mapping(entry.value, what: "`types`") {
                        config.typeMappings[mapping.key] = try reader.string(mapping)
                    }
                case "claude":
                    config.claude = try ClaudeSettings.parse(entry, reader: reader, file: file)
                default:
                    throw SchemaError(
                        .invalidConfig, file: file, line: entry.keyLine, column: entry.keyColumn,
                        message: "unknown config key `\(entry.key)`", fix: "use only: " + keys.joined(separator: ", "))
                }
            } catch {
                var relabelled = error
                if relabelled.kind == .invalidSchema { relabelled.kind = .invalidConfig }
                throw relabelled
            }
        }
        return config
    }
}

/// Reading schema and config files: missing is fine, unreadable is an error.
enum SchemaFileAccess {
    static func readIfPresent(_ path: String) throws(SchemaError) -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        switch FileReader.read(DiskPath(path), maxBytes: 1 << 20) {
        case .success(let bytes):
            return String(decoding: bytes, as: UTF8.self)
        case .failure(.tooLarge(let size)):
            throw SchemaError(.unreadable, file: path, message: "the file is \(size) bytes; schema and config files are limited to 1 MiB")
        case .failure(.unreadable(let reason, _)):
            throw SchemaError(.unreadable, file: path, message: "cannot read the file: \(reason)", fix: "check its permissions")
        }
    }

    /// Names of the `.yaml`, `.yml` and `.json` files in `folder`, sorted; empty when it does not exist.
    static func schemaFileNames(in folder: String) throws(SchemaError) -> [String] {
        guard access(folder, F_OK) == 0 else { return [] }
        let names: [String]
        do {
            names = try FileSystemEntry.readNames(in: folder)
        } catch {
            throw SchemaError(.unreadable, file: folder, message: "cannot read the schema folder: \(error.reason)", fix: "check its permissions")
        }
        return names.filter { !$0.hasPrefix(".") && ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json")) }
    }
}

extension String {
    var trimmingSlashes: String {
        var text = self
        while text.hasPrefix("./") { text.removeFirst(2) }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

/// `claude:` in `.rhizome/config.yaml`:
///
///     claude:
///       budget: 20            # US dollars a month; a call that would exceed it stops
///       prices: { claude-opus-4-6: { input: 5, output: 25 } }   # per million tokens
///       explore: { model: claude-haiku-4-5, maxTokens: 512, temperature: 0.3, prompt: "…", translate: auto }
///       reflect: { model: claude-sonnet-4-6, maxTokens: 2048, temperature: 0.7, prompt: "…", folder: Reflections }
public struct ClaudeSettings: Sendable {
    /// One feature's settings; nil means the built-in default.
    public struct Feature: Sendable {
        public var model: String?
        public var maxTokens: Int?
        public var temperature: Double?
        /// Replaces the built-in system prompt.
        public var prompt: String?
        /// `reflect`: the vault folder reflections are written to.
        public var folder: String?
        /// `explore`: whether a question is first turned into English search words by one short call
        /// (`auto`: when it is written in Chinese, Japanese or Korean and the vault's note names are not).
        public var translate: TranslateMode?

        public init() {}
    }

    /// `claude: explore: translate:`.
    public enum TranslateMode: String, Sendable, CaseIterable {
        case auto, always, never
    }

    public var budgetUSD: Double?
    /// `timeouts: { firstByte: 30, idle: 60, total: 300 }`, in seconds; nil means the built-in default.
    public var firstByteTimeout: Double?
    public var idleTimeout: Double?
    public var totalTimeout: Double?
    /// US dollars per million tokens, by model id, added to (or replacing) the built-in prices.
    public var prices: [String: (input: Double, output: Double)] = [:]
    public var explore = Feature()
    public var reflect = Feature()

    public init() {}

    static func parse(_ entry: FrontmatterEntry, reader: SchemaNodeReader, file: String) throws(SchemaError) -> ClaudeSettings {
        var settings = ClaudeSettings()
        for item in try reader.mapping(entry.value, what: "`claude`") {
            switch item.key {
            case "budget":
                let budget = try reader.number(item)
                guard budget >= 0 else {
                    throw SchemaError(.invalidConfig, file: file, line: item.value.line, column: item.value.column,
                                      message: "`budget` must be zero or more (US dollars a month)", fix: "write it like `budget: 20`")
                }
                settings.budgetUSD = budget
            case "prices":
                for model in try reader.mapping(item.value, what: "`claude.prices`") {
                    var input: Double?, output: Double?
                    for price in try reader.mapping(model.value, what: "`claude.prices.\(model.key)`") {
                        switch price.key {
                        case "input": input = try reader.number(price)
                        case "output": output = try reader.number(price)
                        default:
                            throw SchemaError(.invalidConfig, file: file, line: price.keyLine, column: price.keyColumn,
                                              message: "unknown key `claude.prices.\(model.key).\(price.key)`", fix: "use only: input, output (US dollars per million tokens)")
                        }
                    }
                    guard let input, let output, input >= 0, output >= 0 else {
                        throw SchemaError(.invalidConfig, file: file, line: model.value.line, column: model.value.column,
                                          message: "`claude.prices.\(model.key)` needs `input` and `output`, US dollars per million tokens",
                                          fix: "write it like `\(model.key): { input: 3, output: 15 }`")
                    }
                    settings.prices[model.key] = (input, output)
                }
            case "timeouts":
                for timeout in try reader.mapping(item.value, what: "`claude.timeouts`") {
                    let seconds = try reader.number(timeout)
                    guard seconds > 0 else {
                        throw SchemaError(.invalidConfig, file: file, line: timeout.value.line, column: timeout.value.column,
                                          message: "`claude.timeouts.\(timeout.key)` must be more than zero seconds", fix: "write it like `\(timeout.key): 60`")
                    }
                    switch timeout.key {
                    case "firstByte": settings.firstByteTimeout = seconds
                    case "idle": settings.idleTimeout = seconds
                    case "total": settings.totalTimeout = seconds
                    default:
                        throw SchemaError(.invalidConfig, file: file, line: timeout.keyLine, column: timeout.keyColumn,
                                          message: "unknown key `claude.timeouts.\(timeout.key)`", fix: "use only: firstByte, idle, total (seconds)")
                    }
                }
            case "explore": settings.explore = try Feature.parse(item, reader: reader, file: file)
            case "reflect": settings.reflect = try Feature.parse(item, reader: reader, file: file)
            default:
                throw SchemaError(.invalidConfig, file: file, line: item.keyLine, column: item.keyColumn,
                                  message: "unknown key `claude.\(item.key)`", fix: "use only: budget, timeouts, prices, explore, reflect")
            }
        }
        return settings
    }
}

extension ClaudeSettings.Feature {
    static func parse(_ entry: FrontmatterEntry, reader: SchemaNodeReader, file: String) throws(SchemaError) -> Self {
        var feature = Self()
        for item in try reader.mapping(entry.value, what: "`claude.\(entry.key)`") {
            switch item.key {
            case "model": feature.model = try reader.string(item)
            case "maxTokens":
                let value = try reader.count(item)
                guard value >= 1 else {
                    throw SchemaError(.invalidConfig, file: file, line: item.value.line, column: item.value.column, message: "`maxTokens` must be at least 1")
                }
                feature.maxTokens = value
            case "temperature":
                let value = try reader.number(item)
                guard (0...1).contains(value) else {
                    throw SchemaError(.invalidConfig, file: file, line: item.value.line, column: item.value.column,
                                      message: "`temperature` must be from 0 to 1", fix: "write it like `temperature: 0.3`")
                }
                feature.temperature = value
            case "prompt": feature.prompt = try reader.string(item)
            case "folder" where entry.key == "reflect":
                let folder = try reader.string(item).trimmingSlashes
                guard !folder.isEmpty, !folder.hasPrefix("/"), VaultPath.normalize(folder) == folder else {
                    throw SchemaError(.invalidConfig, file: file, line: item.value.line, column: item.value.column,
                                      message: "`folder` must be a folder inside the vault, relative to it", fix: "write it like `Reflections`")
                }
                feature.folder = folder
            case "translate" where entry.key == "explore":
                let value = try reader.string(item)
                guard let mode = ClaudeSettings.TranslateMode(rawValue: value) else {
                    throw SchemaError(.invalidConfig, file: file, line: item.value.line, column: item.value.column,
                                      message: "`translate` must be auto, always or never", fix: "write it like `translate: auto`")
                }
                feature.translate = mode
            default:
                throw SchemaError(.invalidConfig, file: file, line: item.keyLine, column: item.keyColumn,
                                  message: "unknown key `claude.\(entry.key).\(item.key)`",
                                  fix: "use only: model, maxTokens, temperature, prompt" + (entry.key == "reflect" ? ", folder" : ", translate"))
            }
        }
        return feature
    }
}
