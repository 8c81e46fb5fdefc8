import Foundation

extension IndexAgreement {
  /// The index kinds Realm showed for a file, remembered by the file's bytes (and the Realm
  /// Core and key that read it): the checks of a test compare each version of a file they
  /// write with the same original, whose kinds Realm then needs to show only once.
  final class KindsCache: @unchecked Sendable {
    static let shared = KindsCache()

    private let lock = NSLock()
    private var kinds: [RealmOracle.FileIdentity: [String: String]] = [:]

    func kinds(of file: RealmOracle.FileIdentity) -> [String: String]? {
      lock.withLock { kinds[file] }
    }

    func remember(_ found: [String: String], of file: RealmOracle.FileIdentity) {
      lock.withLock {
        // A bound on what the suite keeps: the originals are a few small files.
        if kinds.count >= 256 { kinds.removeAll() }
        kinds[file] = found
      }
    }
  }
}
