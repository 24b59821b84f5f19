import Foundation
import RhizomeCore

/// Bases over the index: finding a `.base` file by name, reading and compiling it, and running one of its
/// views over the vault's files as the index knows them.
extension IndexStore {
    /// The `.base` file a FILE argument names, resolved like a note (`Books`, `Books.base`,
    /// `Bases/Books.base`, `[[Books.base]]`); nil when no base file matches.
    public func resolveBase(_ argument: String) throws -> FileRecord? {
        let trimmed = argument.trimmingSpaces
        if !trimmed.lowercased().hasSuffix(".base"), let record = try resolveNote(trimmed + ".base"), record.path.lowercased().hasSuffix(".base") {
            return record
        }
        if let record = try resolveNote(trimmed), record.path.lowercased().hasSuffix(".base") { return record }
        return nil
    }

    /// Reads and compiles the `.base` file at vault path `path` (`BaseError` when it is wrong or unreadable).
    public func baseProgram(atPath path: String) throws -> BaseProgram {
        guard let vaultPath = try indexedVaultPath(),
            case .success(let bytes) = FileReader.read(DiskPath(vaultPath + "/" + path), maxBytes: 16 << 20)
        else {
            throw BaseError(
                .unreadable, "the base file cannot be read", path: path,
                fix: "check that it exists, is readable and under 16 MiB, then run `rhizome index`")
        }
        return try BaseProgram.load(text: String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// Paths of `.base` files with a name close to `argument`, for "did you mean".
    public func baseSuggestions(for argument: String, limit: Int = 5) throws -> [String] {
        let all = try connection.prepare("SELECT path FROM file WHERE extension = 'base' ORDER BY path").rows { $0.text(0) }
        let wanted = argument.lowercased().replacingOccurrences(of: ".base", with: "")
        let close = all.filter { path in
            let name = VaultPath.fileName(of: path).lowercased().replacingOccurrences(of: ".base", with: "")
            return name.contains(wanted) || wanted.contains(name) || NearestName.nearest(wanted, among: [name]) != nil
        }
        return Array((close.isEmpty ? all : close).prefix(limit))
    }

    /// Problems in the vault's `.base` files, as `validate` reports them: YAML that does not parse, unknown
    /// keys, malformed filters and views (`BaseDocument.problems`), and expressions that do not parse, call
    /// unknown functions or make formulas circular. In path order, then by line.
    public func baseFindings() throws -> [Finding] {
        guard let vaultPath = try indexedVaultPath() else { return [] }
        let paths = try connection.prepare("SELECT path FROM file WHERE extension = 'base' ORDER BY path").rows { $0.text(0) }
        var findings: [Finding] = []
        for path in paths {
            guard case .success(let bytes) = FileReader.read(DiskPath(vaultPath + "/" + path), maxBytes: 16 << 20) else {
                findings.append(Finding(
                    code: .unreadableFile, severity: .error, message: "cannot read the base file", path: path,
                    fix: "check that it exists and is readable"))
                continue
            }
            switch BaseDocument.parse(String(decoding: bytes, as: UTF8.self)) {
            case .failure(let error):
                findings.append(error.finding(path: path))
            case .success(let document):
                findings += document.problems.map { $0.finding(path: path) }
                do {
                    _ = try BaseProgram(document: document, path: path)
                } catch {
                    if let finding = error.finding(path: path) { findings.append(finding) }
                }
                findings += Self.unknownFormulaFindings(document, path: path)
            }
        }
        return findings
    }

    /// Views that show, sort, group or summarise `formula.x` when the base defines no formula `x`: Obsidian
    /// shows an empty column, which is probably not what was meant.
    static func unknownFormulaFindings(_ document: BaseDocument, path: String) -> [Finding] {
        let defined = Set(document.formulas.map(\.name))
        var findings: [Finding] = []
        for view in document.views {
            var uses: [(BasePropertyName, Int, Int)] = view.order.map { ($0, view.line, view.column) }
            uses += view.sort.map { ($0.property, $0.line, $0.column) }
            if let groupBy = view.groupBy { uses.append((groupBy.property, groupBy.line, groupBy.column)) }
            uses += view.summaries.map { ($0.property, $0.line, $0.column) }
            var reported: Set<String> = []
            for (property, line, column) in uses where property.namespace == .formula && !defined.contains(property.name) {
                guard reported.insert(property.name).inserted else { continue }
                findings.append(Finding(
                    code: .baseUnknownFormula, severity: .warning,
                    message: "view \"\(view.name)\" uses `formula.\(property.name)`, which the base does not define (an empty column)",
                    path: path, line: line, column: column,
                    fix: defined.isEmpty ? "define it under `formulas:`" : "define it under `formulas:`, or use one of: " + defined.sorted().joined(separator: ", ")))
            }
        }
        return findings
    }

    /// Runs the view `viewName` (nil: the first) of `program` over every file of the index. `thisPath` is
    /// what `this` refers to: the base file itself, or the note embedding it.
    public func runBase(
        _ program: BaseProgram, viewNamed viewName: String?, thisPath: String?, now: Date = Date(), timeZone: TimeZone = .current
    ) throws -> BaseResult {
        var phases = PhaseTimer(label: "base")
        defer { phases.finish() }
        let viewIndex = try program.view(named: viewName).index
        let vault = try IndexedBaseVault(
            store: self, needs: IndexedBaseVault.Needs(program: program), candidates: program.candidateConditions(viewIndex: viewIndex) ?? [],
            phases: &phases)
        let environment = BaseEnvironment(vault: vault, now: now, timeZone: timeZone)
        // The connection's time limit (an MCP call's) ends the rows' evaluation too, as it ends the SQL.
        let deadline = self.deadline
        var shouldStop: (@Sendable () -> Bool)? = nil
        if let deadline { shouldStop = { deadline.isOver } }
        let runner = BaseRunner(program: program, environment: environment, thisPath: thisPath)
        let result: BaseResult
        do {
            result = try runner.run(viewNamed: viewName, files: vault.files, shouldStop: shouldStop)
        } catch {
            if error.kind == .stopped { try deadline?.check() }
            throw error
        }
        phases.mark("evaluate")
        return result
    }

    /// Each view's name, type and number of rows (before its `limit`).
    public func baseViewCounts(_ program: BaseProgram, thisPath: String?, now: Date = Date()) throws -> [(name: String, type: String, total: Int)] {
        var phases = PhaseTimer(enabled: false)
        let vault = try IndexedBaseVault(store: self, needs: IndexedBaseVault.Needs(program: program), phases: &phases)
        let runner = BaseRunner(program: program, environment: BaseEnvironment(vault: vault, now: now), thisPath: thisPath)
        let names: [String?] = program.document.views.isEmpty ? [nil] : program.document.views.map(\.name)
        var counts: [(String, String, Int)] = []
        for name in names {
            let result = try runner.run(viewNamed: name, files: vault.files)
            counts.append((result.viewName, result.viewType, result.total))
        }
        return counts
    }
}
