/// Objects of one table pulled one at a time in key order, a cluster leaf (at most a few
/// hundred objects) decoded at a time: the two sides of ``RealmDiff``'s merge-join.
///
/// Only the list of leaves (a few bytes per leaf) and the current leaf's objects are held, so
/// memory stays flat in the size of the table.
struct ObjectCursor {
  /// The group read.
  let group: Group
  /// The ranges (leaves) of the table, in key order.
  private var ranges: [ObjectRange] = []
  private var nextRange = 0
  private var batch: [(key: Int64, values: [RealmValue])] = []
  private var position = 0

  /// A cursor before the first object of `table`, or an empty one when `table` is nil.
  init(group: Group, table: Table?) throws {
    self.group = group
    guard let table else { return }
    var ranges: [ObjectRange] = []
    try group.forEachObjectRange(in: table) { ranges.append($0) }
    self.ranges = ranges
  }

  /// The current object, nil at the end.
  mutating func current() throws -> (key: Int64, values: [RealmValue])? {
    while position >= batch.count {
      guard nextRange < ranges.count else { return nil }
      batch.removeAll(keepingCapacity: true)
      position = 0
      try group.forEachObject(in: ranges[nextRange]) { key, values in batch.append((key, values)) }
      nextRange += 1
    }
    return batch[position]
  }

  /// Moves past the current object.
  mutating func advance() { position += 1 }
}
