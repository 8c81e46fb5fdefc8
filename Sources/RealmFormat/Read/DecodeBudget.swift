/// The work bounds of one decoding pass, shared by every walk in it.
///
/// In a valid file one pass over a table visits each collection node once and expands each
/// embedded object once (every embedded object has exactly one parent), so a pass may visit
/// no more nodes than the file has 8-byte words and expand no more embedded objects than the
/// file has. A hostile file with shared or cyclic subtrees runs out of budget and gets a
/// `limitExceeded` error instead of making the reader loop for a very long time. A class, so
/// that nested walks can charge it while their callers hold it.
///
/// The values a pass decodes are charged to a ``ReadBudget`` (see there for the units), in
/// chunks, so that passes on several threads can share one.
final class DecodeBudget {
  /// Embedded objects that may still be expanded inline.
  var embeddedObjects: Int
  /// Tree nodes that may still be visited.
  var nodes: Int
  /// Per table position: the cluster leaf last used for an object lookup and its accessors.
  var leafCursors: [Int: (leaf: Ref, cursors: [Group.Cursor])] = [:]
  /// The budget of the reading this pass belongs to.
  let reading: ReadBudget
  /// Units taken from ``reading`` and not yet spent.
  private var units = 0

  /// Units taken from the reading budget at a time.
  static let chunk = 1 << 14

  init(embeddedObjects: Int, nodes: Int, reading: ReadBudget) {
    self.embeddedObjects = embeddedObjects
    self.nodes = nodes
    self.reading = reading
  }

  /// Units taken and not spent go back to the reading when the pass ends.
  deinit { if units > 0 { reading.giveBack(units) } }

  /// Spends `cost` units of decoded values.
  ///
  /// - Throws: ``FormatError`` `limitExceeded` when the reading's budget is spent.
  @inline(__always)
  func spend(_ cost: Int) throws(FormatError) {
    units &-= cost
    if units < 0 { try refill() }
  }

  private func refill() throws(FormatError) {
    let needed = DecodeBudget.chunk &- units
    try reading.take(needed)
    units &+= needed
  }
}
