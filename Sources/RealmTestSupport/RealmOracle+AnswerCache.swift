import Foundation
import RealmTestBytes

extension RealmOracle {
  /// A file as Realm's answers about it depend on: its bytes (compared whole, not by a
  /// digest), the Realm Core that reads it and the key.
  struct FileIdentity: Hashable {
    var bytes: [UInt8]
    var core: Core
    var key: String?

    func hash(into hasher: inout Hasher) {
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
      hasher.combine(core)
      hasher.combine(key)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
      a.core == b.core && a.key == b.key && TestFiles.same(a.bytes, b.bytes)
    }
  }

  /// Realm's answers to queries already asked in this run, by the file's bytes, the Realm Core
  /// that answered and the key: Realm answers the same query on the same bytes the same way,
  /// and the index checks ask it often (the original of a test before each of its commands,
  /// a file a command left unchanged, Realm's own file of the same objects). About a quarter
  /// of the queries of the index checks were such repeats.
  final class AnswerCache: @unchecked Sendable {
    static let shared = AnswerCache()

    /// What the cache may hold, in bytes of files; past it, it starts again empty.
    static let byteBudget = 64 << 20

    private let lock = NSLock()
    private var answers: [FileIdentity: [Query: Answer]] = [:]
    private var heldBytes = 0

    /// The answers known for `queries` on `file` (nil where not asked yet).
    func answers(_ queries: [Query], on file: FileIdentity) -> [Answer?] {
      lock.withLock {
        let known = answers[file]
        return queries.map { known?[$0] }
      }
    }

    /// Remembers Realm's answers on `file`.
    func remember(_ found: [(Query, Answer)], on file: FileIdentity) {
      lock.withLock {
        if answers[file] == nil {
          if heldBytes + file.bytes.count > Self.byteBudget {
            answers.removeAll()
            heldBytes = 0
          }
          heldBytes += file.bytes.count
        }
        for (query, answer) in found { answers[file, default: [:]][query] = answer }
      }
    }
  }
}
