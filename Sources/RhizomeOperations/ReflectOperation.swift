import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeStore

/// `reflect`: a reflection on the notes created or changed in a period, streamed, then written into the
/// vault as a `reflection` note that links its evidence (`ReflectionTarget` says where, and never replaces
/// an edited one).
///
///     let reflect = ReflectOperation(store: store, vaultPath: vault, settings: config.claude, period: .last(7), notice: { print($0) })
///     let plan = try reflect.plan()                     // the notes, the prompt, the note's path; nothing sent
///     let written = try await plan.write { piece in print(piece, terminator: "") }
public struct ReflectOperation {
    /// The period's notes, the prompt that quotes them and where the reflection would go.
    public struct Plan: Sendable {
        public var period: Reflect.Period
        /// How many notes were created or changed in the period (more than the prompt may quote).
        public var noteCount: Int
        /// The notes the prompt quotes, numbered from 1.
        public var included: [Explore.ContextNote]
        public var target: ReflectionTarget
        public var call: PromptPlan
        let links: [Int: String]
        let userMessage: String
        let caller: ClaudeFeatureCall
        let folder: String
        let vaultPath: String
        /// Where the note's write is journaled (beside the index), for `rhizome undo`.
        let journal: OperationJournal
    }

    /// What was written. Its JSON keys are `reflect --json`'s.
    public struct Written: Encodable, Sendable {
        /// Vault-relative.
        public var path: String
        public var action: String
        public var answer: String
        /// The quoted notes as wikilinks.
        public var sources: [String]
        @NullEncoded public var inputTokens: Int?
        @NullEncoded public var outputTokens: Int?
        @NullEncoded public var costUSD: Double?
        public var model: String

        enum CodingKeys: String, CodingKey { case path, action, answer, sources, inputTokens, outputTokens, costUSD, model }
    }

    let store: IndexStore
    let vaultPath: String
    let period: Reflect.Period
    let force: Bool
    let folder: String
    public let call: ClaudeFeatureCall

    /// `store` must be current. `force` replaces the period's reflection when it was not edited since it
    /// was written. `notice` receives lines for the person beside the answer (retries, warnings).
    public init(
        store: IndexStore, vaultPath: String, settings: ClaudeSettings, period: Reflect.Period, force: Bool = false,
        choice: ClaudeFeatureCall.Choice = .init(), environment: [String: String] = ProcessInfo.processInfo.environment,
        notice: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.vaultPath = vaultPath
        self.period = period
        self.force = force
        folder = settings.reflect.folder ?? Reflect.defaultFolder
        call = ClaudeFeatureCall(
            feature: "reflect", defaults: .init(model: Reflect.defaultModel, maxTokens: Reflect.defaultMaxTokens, temperature: Reflect.defaultTemperature, prompt: Reflect.systemPrompt),
            settings: settings, configured: settings.reflect, choice: choice, environment: environment, notice: notice)
    }

    /// Gathers the period's notes (leaving out earlier reflections) and builds the prompt; sends nothing.
    public func plan() throws -> Plan {
        guard let bounds = period.bounds() else { throw ClaudeError.invalidRequest("the period \(period.description) has no days") }
        let notes = try store.notesInPeriod(from: bounds.from, to: bounds.to, fromDay: period.fromDay, toDay: period.toDay, excludingFolder: folder)
        let (prompt, included) = Explore.prompt(
            question: "Write the reflection on my notes from \(period.description).", notes: ClaudeFeatureCall.sources(notes, vault: vaultPath),
            tokenBudget: Reflect.defaultContextTokens)
        return Plan(
            period: period, noteCount: notes.count, included: included,
            target: ReflectionTarget.choose(folder: folder, period: period, vault: vaultPath, force: force),
            call: call.plan(prompt, notes: included), links: ClaudeFeatureCall.linkTargets(included, store: store), userMessage: prompt,
            caller: call, folder: folder, vaultPath: vaultPath, journal: OperationJournal(vaultPath: vaultPath, databasePath: store.databasePath))
    }
}

extension ReflectOperation.Plan {
    /// Asks the model (`onText` receives the reflection as it arrives, citations already rewritten), then
    /// writes the note. Throws `ClaudeError.invalidRequest`, sending nothing, when the period has no note or
    /// its reflection may not be replaced. When the note appears or changes while the answer streams, both
    /// are kept: the reflection goes beside it as a new version (the answer is paid for).
    public func write(onText: @escaping @Sendable (String) -> Void) async throws -> ReflectOperation.Written {
        guard !included.isEmpty else {
            throw ClaudeError.invalidRequest("no note was created or changed in \(period.description); try a longer period (--since 30d)")
        }
        if target.action == .refuse { throw ClaudeError.invalidRequest(target.action.explanation) }
        let citations = CitedStream(links: links, onText: onText)
        let (answer, cost) = try await caller.stream(userMessage, vault: vaultPath) { citations.feed($0) }
        let text = citations.finish().text
        let model = answer.model.isEmpty ? caller.model : answer.model
        let sources = included.map { links[$0.number]! }
        let note = Array(Reflect.note(period: period, text: text, sources: sources, model: model, created: Date(), usage: answer.usage, costUSD: cost).utf8)
        var written = target
        do {
            try target.write(note, journal: journal)
        } catch EditError.changedSincePlanned {
            written = ReflectionTarget.choose(folder: folder, period: period, vault: vaultPath, force: false, forceNewVersion: true)
            try written.write(note, journal: journal)
            caller.notice("note: \(target.path) changed while the reflection was being written; it is kept, and the reflection saved as \(written.path)")
        }
        return ReflectOperation.Written(
            path: written.path, action: target.action.rawValue, answer: text, sources: sources.map { "[[\($0)]]" },
            inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens, costUSD: cost, model: model)
    }
}
