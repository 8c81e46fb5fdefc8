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
  /// processes at a time. The answers are in the order of `queries`. A query already asked of
  /// the same bytes in this process is not asked again (``AnswerCache``, as for ``run(_:)``).
  public func query(_ path: String, _ queries: [Query], key: String? = nil) throws -> [Answer] {
    guard !queries.isEmpty else { return [] }
    guard let executable else { throw OracleError.absent }
    let bytes = try TestFiles.bytes(path)
    let file = FileIdentity(bytes: bytes, core: core)
    let requests = queries.map { ["query", "--class", $0.className, "--where", $0.predicate] + keyArgs(key) }
    var results = AnswerCache.shared.results(requests, on: file)
    let missing = requests.indices.filter { results[$0] == nil }
    if !missing.isEmpty {
      let found = try Self.withCopy(of: path, bytes: bytes) { copy in
        try Self.run(executable, on: copy, missing.map { requests[$0] })
      }
      for (i, result) in zip(missing, found) { results[i] = result }
      AnswerCache.shared.remember(Array(zip(missing.map { requests[$0] }, found)), on: file)
    }
    return results.map { Self.answer($0!) }
  }

  /// Runs each command (its arguments without the path) on `copy`: the first alone (a
  /// format-23 file is upgraded on first open), then the others two at a time.
  private static func run(_ executable: URL, on copy: String, _ commands: [[String]]) throws -> [Result] {
    @Sendable func arguments(_ command: [String]) -> [String] { [command[0], copy] + command.dropFirst() }
    let results = Results(count: commands.count)
    results.set(0, try execute(executable, arguments(commands[0])))
    let rest = Array(commands.indices.dropFirst())
    let width = 2
    DispatchQueue.concurrentPerform(iterations: width) { lane in
      for i in stride(from: lane, to: rest.count, by: width) {
        do {
          results.set(rest[i], try execute(executable, arguments(commands[rest[i]])))
        } catch {
          results.fail(error)
        }
      }
    }
    if let failure = results.failure { throw failure }
    return results.all
  }

  private static func answer(_ result: Result) -> Answer {
    guard result.status == 0 else { return .refused((result.output + result.errorOutput).trimmingCharacters(in: .whitespacesAndNewlines)) }
    return .keys(result.output.split(separator: "\n").compactMap { Int64($0) })
  }

  private func keyArgs(_ key: String?) -> [String] { key.map { ["--key", $0] } ?? [] }

  /// The results of a batch, filled from several threads.
  private final class Results: @unchecked Sendable {
    private var results: [Result?]
    private var error: (any Error)?
    private let lock = NSLock()
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ result: Result) { lock.withLock { results[i] = result } }
    func fail(_ e: any Error) { lock.withLock { error = e } }
    var failure: (any Error)? { lock.withLock { error } }
    /// Every result (call after every one is set, or after a failure is checked).
    var all: [Result] { lock.withLock { results.map { $0! } } }
  }
}
