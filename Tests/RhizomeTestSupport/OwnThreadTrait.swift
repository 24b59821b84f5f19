// A test trait that runs each test of a suite on a thread of its own, off the concurrency pool.
import RhizomeCore
import Testing

/// Runs each test on a thread of its own instead of the concurrency pool. The pool has one thread per core,
/// and the many synchronous tests running beside (processes waited for, sleeps, whole-vault indexing) block
/// its threads for seconds: a test that measures how soon something happens (a timeout, a cancellation)
/// would measure that wait instead.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// The running test's executor. Unstructured tasks do not inherit it: start them with
    /// `Task(executorPreference: OwnThreadTrait.executor)` to keep them off the pool too.
    @TaskLocal public static var executor: DedicatedThreadExecutor?

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }  // the suite itself: each test gets its own
        let executor = DedicatedThreadExecutor(name: "test: \(test.name)")
        defer { executor.shutdown() }
        try await Self.$executor.withValue(executor) {
            try await withTaskExecutorPreference(executor, operation: function)
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test on a thread of its own, off the concurrency pool.
    public static var ownThread: Self { OwnThreadTrait() }
}
