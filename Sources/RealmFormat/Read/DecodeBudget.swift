/// The work bounds of one decoding pass, shared by every walk in it.
///
/// In a valid file one pass over a table visits each collection node once and expands each
/// embedded object once (every embedded object has exactly one parent), so a pass may visit
/// no more nodes than the file has 8-byte words and expand no more embedded objects than the
/// file has. A hostile file with shared or cyclic subtrees runs out of budget and gets a
/// `limitExceeded` error instead of making the reader loop for a very long time. A class, so
/// that nested walks can charge it while their callers hold it.
final class DecodeBudget {
  /// Embedded objects that may still be expanded inline.
  var embeddedObjects: Int
  /// Tree nodes that may still be visited.
  var nodes: Int
  /// Per table position: the cluster leaf last used for an object lookup and its accessors.
  var leafCursors: [Int: (leaf: Ref, cursors: [Group.Cursor])] = [:]

  init(embeddedObjects: Int, nodes: Int) {
    self.embeddedObjects = embeddedObjects
    self.nodes = nodes
  }
}
