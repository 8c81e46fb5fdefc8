import Foundation
import RealmTestBytes

extension RealmOracle {
  /// One `query` of a batch: a class and a Realm Query Language predicate.
  public struct Query: Sendable, Hashable {
    /// The class queried.
    public var className: String
    /// The predicate (with `SORT`, `DISTINCT`, `LIMIT` if wanted).
    public var predicate: String

    /// A query of `className`.
    public init(_ className: String, _ predicate: String) {
      self.className = className
      self.predicate = predicate
    }
  }

  /// Realm's answer to one query of a batch.
  public enum Answer: Sendable, Equatable {
    /// The object keys, in Realm's result order.
    case keys([Int64])
    /// Realm refused the query or failed: its message.
    case refused(String)

    /// The keys, nil when Realm refused.
    public var keys: [Int64]? {
      if case .keys(let k) = self { return k }
      return nil
    }
  }

  /// Runs `queries` on the file at `path`: the file is copied once into a temporary folder
  /// (Realm creates its `.lock` beside it), then the queries run on that copy, two oracle
  /// processes at a time. The answers are in the order of `queries`. A query this run has
  /// already asked of a file with the same bytes (and key) is not asked again: Realm's answer
  /// is the one it gave (``AnswerCache``).
  public func query(_ path: String, _ queries: [Query], key: String? = nil) throws -> [Answer] {
    guard !queries.isEmpty else { return [] }
    guard executable != nil else { throw OracleError.absent }
    let file = FileIdentity(bytes: try TestFiles.bytes(path), core: core, key: key)
    var answers = AnswerCache.shared.answers(queries, on: file)
    let asked = queries.indices.filter { answers[$0] == nil }
    if !asked.isEmpty {
      let found = try ask(path, asked.map { queries[$0] }, key: key)
      for (i, answer) in zip(asked, found) { answers[i] = answer }
      AnswerCache.shared.remember(Array(zip(asked.map { queries[$0] }, found)), on: file)
    }
    return answers.map { $0! }
  }

  /// Runs `queries` on a copy of the file at `path` (see ``query(_:_:key:)``), every one.
  private func ask(_ path: String, _ queries: [Query], key: String?) throws -> [Answer] {
    let fm = FileManager.default
    let dir = fm.temporaryDirectory.appendingPathComponent("realmctl-oracle-\(UUID().uuidString)")
    try fm.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? fm.removeItem(at: dir) }
    let copy = dir.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
    try fm.copyItem(at: URL(fileURLWithPath: path), to: copy)
    // The first query opens the copy alone (a format-23 file is upgraded on first open).
    let first = try runInPlace(["query", copy.path, "--class", queries[0].className, "--where", queries[0].predicate] + keyArgs(key))
    let answers = Answers(count: queries.count)
    answers.set(0, Self.answer(first))
    let rest = Array(queries.indices.dropFirst())
    let width = 2
    DispatchQueue.concurrentPerform(iterations: width) { lane in
      var i = lane
      while i < rest.count {
        let q = queries[rest[i]]
        do {
          let result = try runInPlace(["query", copy.path, "--class", q.className, "--where", q.predicate] + keyArgs(key))
          answers.set(rest[i], Self.answer(result))
        } catch {
          answers.fail(error)
        }
        i += width
      }
    }
    if let failure = answers.failure { throw failure }
    return answers.all
  }

  private static func answer(_ result: Result) -> Answer {
    guard result.status == 0 else { return .refused((result.output + result.errorOutput).trimmingCharacters(in: .whitespacesAndNewlines)) }
    return .keys(result.output.split(separator: "\n").compactMap { Int64($0) })
  }

  private func keyArgs(_ key: String?) -> [String] { key.map { ["--key", $0] } ?? [] }

  /// Runs the oracle on the paths as given (no copy: the caller's file is a scratch copy).
  private func runInPlace(_ arguments: [String]) throws -> Result {
    guard let executable else { throw OracleError.absent }
    return try Self.execute(executable, arguments)
  }

  /// The answers of a batch, filled from several threads.
  private final class Answers: @unchecked Sendable {
    private var answers: [Answer]
    private var error: (any Error)?
    private let lock = NSLock()
    init(count: Int) { answers = Array(repeating: .refused("not run"), count: count) }
    func set(_ i: Int, _ a: Answer) {
      lock.lock()
      answers[i] = a
      lock.unlock()
    }
    func fail(_ e: any Error) {
      lock.lock()
      error = e
      lock.unlock()
    }
    var failure: (any Error)? {
      lock.lock()
      defer { lock.unlock() }
      return error
    }
    var all: [Answer] {
      lock.lock()
      defer { lock.unlock() }
      return answers
    }
  }
}
