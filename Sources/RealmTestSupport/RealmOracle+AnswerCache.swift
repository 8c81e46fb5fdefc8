import Foundation
import RealmTestBytes

extension RealmOracle {
  /// A file as Realm's answers about it depend on: its bytes (compared whole, not by a
  /// digest) and the Realm Core that reads it.
  struct FileIdentity: Hashable {
    var bytes: [UInt8]
    var core: Core

    func hash(into hasher: inout Hasher) {
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
      hasher.combine(core)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
      a.core == b.core && TestFiles.same(a.bytes, b.bytes)
    }
  }

  /// What Realm printed for the read-only commands (`verify`, `dump`, `schema`, `query`)
  /// already run in this test process, by the file's identity and the command's arguments
  /// without the path (the key among them): Realm answers the same command on the same bytes
  /// the same way, and the index checks ask it often (the original of a test before each of
  /// its commands, a file a command left unchanged, Realm's own file of the same objects).
  /// About a quarter of the index checks' queries were such repeats.
  final class AnswerCache: @unchecked Sendable {
    static let shared = AnswerCache()

    /// What the cache may hold, in bytes of files and outputs; past it, it starts again empty.
    static let byteBudget = 64 << 20

    private let lock = NSLock()
    private var results: [FileIdentity: [[String]: Result]] = [:]
    private var heldBytes = 0

    /// The results known for each command (its arguments without the path) on `file`, nil
    /// where not run yet.
    func results(_ commands: [[String]], on file: FileIdentity) -> [Result?] {
      lock.withLock {
        let known = results[file]
        return commands.map { known?[$0] }
      }
    }

    /// Remembers what Realm printed for each command on `file`.
    func remember(_ found: [([String], Result)], on file: FileIdentity) {
      lock.withLock {
        let added = (results[file] == nil ? file.bytes.count : 0) + found.reduce(0) { $0 + $1.1.output.utf8.count }
        if heldBytes + added > Self.byteBudget {
          results.removeAll()
          heldBytes = 0
        }
        heldBytes += added
        for (command, result) in found { results[file, default: [:]][command] = result }
      }
    }
  }
}
