import RealmModel

/// One property of a table read straight from its cluster leaves (``LeafColumn``), a leaf at a
/// time, without setting up the other columns: for a filter that looks at one column of every
/// leaf first and asks for the whole batches (``Group/forEachSelectionBatch(in:filterColumns:_:)``)
/// only where it finds something.
///
/// Made once for a run of leaves (a scan's chunk), not per leaf: the column's plan is looked
/// up once, the leaves share one reading budget, and the file's bytes are read through a
/// reader without a reference to their owner (this value holds the group, which keeps them
/// alive), so threads reading the leaves of one file at once do not contend on one reference
/// count. Not to be shared between threads; make one per thread.
public struct LeafColumnReader {
  /// The group, which keeps its bytes alive, and those bytes not retained
  /// (``ByteReader/unretained``).
  let group: Group, reader: ByteReader
  /// The table's position in the group and the plan of the column read.
  let tableIndex: Int, plan: ColumnDecodePlan
  /// What an object costs, and the budget the leaves read share.
  let objectCost: Int, budget: DecodeBudget

  /// A reader of property `property` (its position in the values) of `table`'s objects; nil
  /// when it is not a plain int, double, float, date or string column of a cluster tree
  /// (formats 2-9, collections, other types).
  public init?(_ group: Group, table: Table, property: Int) {
    guard let index = group.tableIndex(table), case .clusters = group.tables[index].storage else { return nil }
    let plans = group.columnPlans[index]
    guard property >= 0, property < plans.count, plans[property].collection == .single else { return nil }
    switch plans[property].kind {
    case .int, .double, .float, .timestamp, .string: break
    default: return nil
    }
    self.group = group
    reader = group.reader.unretained
    tableIndex = index
    plan = plans[property]
    objectCost = group.objectCost(index)
    budget = group.makeBudget()
  }

  /// Asks the processor to load the property's leaf at `location` into its caches (a hint:
  /// nothing is checked or thrown), so that the leaf is there when ``forEachBatch(in:_:)``
  /// reads it after the leaf before it. Reads the cluster leaf node (see
  /// ``prefetchLeaf(_:)``).
  public func prefetchColumn(_ location: LeafLocation) {
    guard location.tableIndex == tableIndex, location.range == nil, let node = try? ArrayNode(elements: reader, location.leaf),
      let slot = try? node.refOrTagged(plan.column.leafIndex &+ 1), case .ref(let leaf) = slot
    else { return }
    // A leaf of 256 short strings of up to 15 bytes, or of 256 eight-byte values.
    reader.prefetch(offset: leaf.rawValue, count: 8 &+ 256 &* 16)
  }

  /// Asks the processor to load the start of the cluster leaf node at `location` (a hint), for
  /// a ``prefetchColumn(_:)`` of it that follows.
  public func prefetchLeaf(_ location: LeafLocation) {
    guard location.range == nil else { return }
    reader.prefetch(offset: location.leaf.rawValue, count: 64)
  }

  /// Calls `body` with the property of the objects of `range` (from
  /// ``Group/forEachObjectRange(in:_:)`` on the same table), in batches of at most 256 objects,
  /// spending from the reading budget what ``Group/forEachSelectionBatch(in:filterColumns:_:)``
  /// spends. The columns are valid only during `body`.
  public func forEachBatch(in range: ObjectRange, _ body: (LeafColumn) throws -> Void) throws {
    guard range.tableIndex == tableIndex else { throw FormatError.corrupt("object range of another table") }
    let leaf = try ClusterLeaf(try ArrayNode(elements: reader, range.leaf), offset: range.keyOffset)
    guard leaf.count == range.count else { throw FormatError.corrupt("object range at \(range.leaf) changed") }
    let values = try group.valueLeaf(leaf, plan)
    for start in stride(from: 0, to: leaf.count, by: Group.rowBatch) {
      let rows = start..<min(start &+ Group.rowBatch, leaf.count)
      try budget.spend(rows.count &* objectCost)
      if let column = LeafColumn(values, rows: rows, budget: budget) { try body(column) }
    }
  }
}
