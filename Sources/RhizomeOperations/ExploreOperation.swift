import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeStore

/// `explore`: a short answer to a question from the vault's most relevant notes, streamed, its `[n]`
/// citations turned into `[[wikilinks]]` as it arrives.
///
///     let explore = ExploreOperation(store: store, vaultPath: vault, settings: config.claude, question: q, notice: { print($0) })
///     let plan = try explore.plan()                   // the notes and the exact prompt; nothing sent
///     let answer = try await plan.answer { piece in print(piece, terminator: "") }
public struct ExploreOperation {
    /// The notes chosen for a question and the prompt that quotes them.
    public struct Plan: Sendable {
        /// Every note found, best first, with its score.
        public var relevant: [IndexStore.RelevantNote]
        /// The notes the prompt quotes, numbered from 1.
        public var included: [Explore.ContextNote]
        /// What the notes were searched for: the question's words, the English words of its Chinese
        /// or Japanese terms, and the words of its translation when there is one.
        public var searchWords: [String]
        /// The English search words the model gave for the question (`translator`), and what
        /// that call cost; nil when the question was not translated.
        public var translation: Translation?
        /// The wikilink target of each quoted note, by number.
        public var links: [Int: String]
        public var call: PromptPlan
        let userMessage: String
        let caller: ClaudeFeatureCall
        let vaultPath: String

        /// The score of a quoted note.
        public func score(of note: Explore.ContextNote) -> Double {
            relevant.first { $0.path == note.path }?.score ?? 0
        }
    }

    /// An answer as shown, with what it cost. Its JSON keys are `explore --json`'s.
    public struct Answer: Encodable, Sendable {
        public struct Source: Encodable, Sendable {
            public var number: Int
            public var path: String
            public var link: String
            public var cited: Bool
        }
        public struct Usage: Encodable, Sendable {
            @NullEncoded public var inputTokens: Int?
            @NullEncoded public var outputTokens: Int?
            @NullEncoded public var cacheReadInputTokens: Int?
            @NullEncoded public var cacheCreationInputTokens: Int?

            enum CodingKeys: String, CodingKey { case inputTokens, outputTokens, cacheReadInputTokens, cacheCreationInputTokens }
        }
        /// The text with `[[wikilinks]]` for citations.
        public var answer: String
        /// The English search words the question was turned into first, and that call's cost.
        @NullEncoded public var translation: Translation?
        public var model: String
        @NullEncoded public var stopReason: String?
        public var sources: [Source]
        public var usage: Usage
        @NullEncoded public var costUSD: Double?
        public var attempts: Int

        enum CodingKeys: String, CodingKey { case answer, translation, model, stopReason, sources, usage, costUSD, attempts }
    }

    /// A question turned into English search words by one short call before the notes are picked.
    public struct Translation: Encodable, Sendable, Equatable {
        public var searchWords: String
        @NullEncoded public var costUSD: Double?

        enum CodingKeys: String, CodingKey { case searchWords, costUSD }
    }

    let store: IndexStore
    let vaultPath: String
    let question: String
    let translateMode: ClaudeSettings.TranslateMode
    public let call: ClaudeFeatureCall
    /// Turns the question into English search words (`translatesQuestion()` says whether to).
    public let translator: Translator

    /// The short call that turns a question into English search words: explore's model, temperature 0,
    /// at most `Explore.translationMaxTokens` tokens, checked against the budget and recorded in the
    /// ledger as `explore`. Needs no index, so it is made outside a read connection.
    public struct Translator: Sendable {
        let call: ClaudeFeatureCall
        let question: String
        let vaultPath: String
        /// The most the answer call can cost (its prompt trimmed to `Explore.defaultContextTokens` of notes):
        /// the budget must allow both before the translation is paid for.
        let answerReserveUSD: Double

        /// What the call can cost at most, for a dry run: its estimated input tokens and dollars.
        public var estimate: (inputTokens: Int, costUSD: Double) { call.maximumCost(question) }

        /// Asks the model for the question's English search words.
        public func searchWords() async throws -> Translation {
            let (answer, cost) = try await call.stream(question, vault: vaultPath, reservingUSD: answerReserveUSD) { _ in }
            return Translation(searchWords: Explore.searchWords(ofTranslation: answer.text), costUSD: cost)
        }
    }

    /// `store` must be current. `notice` receives lines for the person beside the answer (retries, warnings).
    /// `translate` overrides `claude: explore: translate:` (default `auto`).
    public init(
        store: IndexStore, vaultPath: String, settings: ClaudeSettings, question: String, choice: ClaudeFeatureCall.Choice = .init(),
        translate: ClaudeSettings.TranslateMode? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, notice: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.vaultPath = vaultPath
        self.question = question
        translateMode = translate ?? settings.explore.translate ?? .auto
        call = ClaudeFeatureCall(
            feature: "explore", defaults: .init(model: Explore.defaultModel, maxTokens: Explore.defaultMaxTokens, temperature: Explore.defaultTemperature, prompt: Explore.systemPrompt),
            settings: settings, configured: settings.explore, choice: choice, environment: environment, notice: notice)
        var model = ClaudeSettings.Feature()
        model.model = settings.explore.model
        var translation = ClaudeFeatureCall(
            feature: "explore", defaults: .init(model: Explore.defaultModel, maxTokens: Explore.translationMaxTokens, temperature: 0, prompt: Explore.translationPrompt),
            settings: settings, configured: model, choice: choice, environment: environment, notice: notice)
        // Keywords cut off at the limit are still keywords, and the limit is not a setting to raise.
        translation.reportsCutOff = false
        translator = Translator(
            call: translation, question: question, vaultPath: vaultPath,
            answerReserveUSD: call.maximumCost(question, plusInputTokens: Explore.defaultContextTokens).costUSD)
    }

    /// Whether the question is turned into English search words first: always, never, or (`auto`) when
    /// it holds Chinese, Japanese or Korean characters and fewer than a fifth of the vault's note names
    /// do (a vault written in English, which such a question shares few words with). A vault without
    /// notes is never translated for (no words could find anything in it).
    public func translatesQuestion() throws -> Bool {
        switch translateMode {
        case .always: return true
        case .never: return false
        case .auto:
            guard IndexStore.holdsCJK(question), let share = try store.cjkNoteNameShare() else { return false }
            return share < 0.2
        }
    }

    /// What the notes are searched for: the question, and the words of its translation when there is one
    /// (the retrieval benchmark searches the same text).
    public static func searchedText(question: String, translationWords: String?) -> String {
        translationWords.map { question + "\n" + $0 } ?? question
    }

    /// Picks the notes (at most 20, within the context budget) and builds the prompt; sends nothing. With
    /// a `translation`, the notes are searched for its words as well as the question's; the prompt asks
    /// the question as written.
    public func plan(translation: Translation? = nil) throws -> Plan {
        let searched = Self.searchedText(question: question, translationWords: translation?.searchWords)
        let relevant = try store.relevantNotes(for: searched)
        let (prompt, included) = Explore.prompt(question: question, notes: ClaudeFeatureCall.sources(relevant, vault: vaultPath))
        return Plan(relevant: relevant, included: included, searchWords: IndexStore.searchWords(for: searched), translation: translation,
                    links: ClaudeFeatureCall.linkTargets(included, store: store), call: call.plan(prompt, notes: included), userMessage: prompt,
                    caller: call, vaultPath: vaultPath)
    }
}

extension ExploreOperation.Plan {
    /// Asks the model. `onText` receives the answer as it arrives, citations already rewritten. Throws
    /// `ClaudeError.invalidRequest` when no note matches the question (nothing is sent then).
    public func answer(onText: @escaping @Sendable (String) -> Void) async throws -> ExploreOperation.Answer {
        typealias Answer = ExploreOperation.Answer
        let plan = self, call = caller
        guard !plan.included.isEmpty else {
            throw ClaudeError.invalidRequest("no note matches the words of the question; try other words (`rhizome search` finds notes by word)")
        }
        let citations = CitedStream(links: plan.links, onText: onText)
        let (answer, cost) = try await call.stream(plan.userMessage, vault: vaultPath) { citations.feed($0) }
        let (text, cited) = citations.finish()
        let usage = answer.usage
        return Answer(
            answer: text, translation: plan.translation, model: answer.model.isEmpty ? call.model : answer.model, stopReason: answer.stopReason,
            sources: plan.included.map { Answer.Source(number: $0.number, path: $0.path, link: "[[\(plan.links[$0.number]!)]]", cited: cited.contains($0.number)) },
            usage: .init(inputTokens: usage.inputTokens, outputTokens: usage.outputTokens,
                         cacheReadInputTokens: usage.cacheReadInputTokens, cacheCreationInputTokens: usage.cacheCreationInputTokens),
            costUSD: cost, attempts: answer.attempts)
    }
}

/// Streamed text passed on as it arrives, with `[n]` citations turned into `[[wikilinks]]` (a citation
/// split across pieces is held back until it is whole).
final class CitedStream: Sendable {
    private let state: Locked<(rewriter: CitationRewriter, text: String)>
    private let onText: @Sendable (String) -> Void

    init(links: [Int: String], onText: @escaping @Sendable (String) -> Void) {
        state = Locked((CitationRewriter(links: links), ""))
        self.onText = onText
    }

    /// Pieces arrive one at a time (the stream's order); `onText` is called outside the lock, so it may
    /// block or call back in.
    func feed(_ piece: String) {
        let ready = state.withLock { state in
            let ready = state.rewriter.feed(piece)
            state.text += ready
            return ready
        }
        if !ready.isEmpty { onText(ready) }
    }

    /// The whole text as passed on, and the numbers cited.
    func finish() -> (text: String, cited: [Int]) {
        let (rest, text, cited) = state.withLock { state in
            let rest = state.rewriter.finish()
            state.text += rest
            return (rest, state.text, state.rewriter.cited)
        }
        if !rest.isEmpty { onText(rest) }
        return (text, cited)
    }
}
