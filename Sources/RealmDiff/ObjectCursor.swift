import Dispatch
import RealmFormat
import RealmModel

/// Objects of one table pulled one at a time in key order, a cluster leaf (at most a few
/// hundred objects) decoded at a time: the two sides of ``RealmDiff``'s merge-join.
///
/// While the caller compares the objects of one leaf, the next leaf is decoded on another
/// thread, so the two files of a diff are decoded in parallel with each other and with the
/// comparison. Only the list of leaves (a few bytes per leaf), the current leaf's objects and
/// the next one's are held, so memory stays flat in the size of the table. A cursor left
/// before its end waits for its background decoding when it goes away (the file must stay
/// mapped until then).
final class ObjectCursor {
  typealias Batch = [(key: Int64, values: [RealmValue])]

  /// The group read.
  let group: Group
  /// The ranges (leaves) of the table, in key order.
  private var ranges: [ObjectRange] = []
  private var nextRange = 0
  private var batch: Batch = []
  private var position = 0
  /// The decoding of `ranges[nextRange]`, started in the background.
  private var pending: Prefetch?

  /// A cursor before the first object of `table`, or an empty one when `table` is nil.
  init(group: Group, table: Table?) throws {
    self.group = group
    guard let table else { return }
    var ranges: [ObjectRange] = []
    try group.forEachObjectRange(in: table) { ranges.append($0) }
    self.ranges = ranges
    pending = prefetch(0)
  }

  /// The current object, nil at the end.
  func current() throws -> (key: Int64, values: [RealmValue])? {
    while position >= batch.count {
      guard nextRange < ranges.count, let loading = pending else { return nil }
      // Taken before the wait: after a failed leaf, nothing is left for deinit to wait for.
      pending = nil
      batch = try loading.wait()
      position = 0
      nextRange += 1
      pending = prefetch(nextRange)
    }
    return batch[position]
  }

  deinit { _ = try? pending?.wait() }

  /// Moves past the current object.
  func advance() { position += 1 }

  private func prefetch(_ index: Int) -> Prefetch? {
    guard index < ranges.count else { return nil }
    let job = Prefetch()
    let (group, range) = (group, ranges[index])
    DispatchQueue.global().async {
      var objects: Batch = []
      objects.reserveCapacity(range.count)
      job.finish(Result { try group.forEachObject(in: range) { key, values in objects.append((key, values)) }; return objects })
    }
    return job
  }
}

/// One leaf decoded in the background: its objects or the error, handed over once.
private final class Prefetch: @unchecked Sendable {
  // Written once by the decoding thread before `done` is signalled, read after the wait.
  private var result: Result<ObjectCursor.Batch, any Error>?
  private let done = DispatchSemaphore(value: 0)

  func finish(_ result: Result<ObjectCursor.Batch, any Error>) {
    self.result = result
    done.signal()
  }

  /// Waits for the decoding; may be called again (it then returns at once).
  func wait() throws -> ObjectCursor.Batch {
    done.wait()
    done.signal()
    return try result!.get()
  }
}
