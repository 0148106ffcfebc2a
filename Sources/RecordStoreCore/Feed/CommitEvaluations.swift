import Foundation
import PredicateLanguage

/// Which records of one commit match each live query's condition, worked out once and shared by
/// every observer of that condition: a hundred observers of one query evaluate a commit's
/// records once, not a hundred times.
///
/// The feed attaches one to each commit it delivers (``CommittedChanges/evaluations``); an
/// observer asks it for its matcher's answers, the first asker computes them (the others wait
/// for them rather than repeating the work).
///
/// ```swift
/// let matches = try changes.evaluations.matches(of: changes, by: matcher)
/// matches[index]   // whether changes.entries[index]'s saved record matches
/// ```
package final class CommitEvaluations: @unchecked Sendable {
    private let answers = LockedState<[RecordMatcher.Key: Result<[Bool], RecordStoreError>]>([:])

    package init() {}

    /// For each entry of the commit, whether its saved record matches (false for a deletion or a
    /// record the commit does not carry).
    package func matches(of commit: CommittedChanges, by matcher: RecordMatcher) throws(RecordStoreError) -> [Bool] {
        // Under the lock: each matcher evaluates a commit once, however many observers ask.
        try answers.withLock { answers in
            if let known = answers[matcher.key] { return known }
            let answer: Result<[Bool], RecordStoreError>
            do throws(RecordStoreError) {
                var matches = [Bool](repeating: false, count: commit.entries.count)
                for (index, entry) in commit.entries.enumerated()
                where entry.kind != .deleted && matcher.touches(entry) {
                    if let record = commit.savedRecords[entry.recordID] { matches[index] = try matcher.matches(record) }
                }
                answer = .success(matches)
            } catch {
                answer = .failure(error)
            }
            answers[matcher.key] = answer
            return answer
        }.get()
    }
}
