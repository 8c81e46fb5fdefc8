import Foundation
import RealmStorage

/// Counts fault points and fails the `failAt`-th one (thread-safe: the hook is @Sendable).
public final class FaultCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var seen = 0
  public let failAt: Int?
  public init(failAt: Int?) { self.failAt = failAt }
  public var count: Int { lock.withLock { seen } }
  public func hook(_ point: FaultPoint) -> FaultAction {
    guard point.isBefore else { return .proceed }
    return lock.withLock {
      defer { seen += 1 }
      return seen == failAt ? .fail(errno: 28) : .proceed
    }
  }
}
