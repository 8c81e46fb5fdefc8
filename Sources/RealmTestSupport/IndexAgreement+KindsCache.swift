import Foundation

extension IndexAgreement {
  /// The index kinds Realm showed for a file, remembered by the file's bytes (and the Realm
  /// Core and key that read it): the checks of a test compare each version of a file they
  /// write with the same original, whose kinds Realm then needs to show only once.
  final class KindsCache: @unchecked Sendable {
    /// What a file's kinds are remembered by.
    struct Entry: Hashable {
      var bytes: [UInt8]
      var oracle: RealmOracle.Core
      var key: String?
    }

    static let shared = KindsCache()

    private let lock = NSLock()
    private var kinds: [Entry: [String: String]] = [:]

    func kinds(of entry: Entry) -> [String: String]? {
      lock.withLock { kinds[entry] }
    }

    func remember(_ found: [String: String], of entry: Entry) {
      lock.withLock {
        // A bound on what the suite keeps: the originals are a few small files.
        if kinds.count >= 256 { kinds.removeAll() }
        kinds[entry] = found
      }
    }
  }
}
