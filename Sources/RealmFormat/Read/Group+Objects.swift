import RealmModel
/// Reading objects: iteration in key order and lookup by key (§5, §6).
extension Group {
  /// Calls `body` with the key and the property values (public columns in spec order) of
  /// every object of `table`, in ascending key order.
  ///
  /// Streams leaf by leaf: column accessors are built once per cluster leaf, and the values of
  /// up to 256 objects at a time are decoded column by column straight from the mapping
  /// before those objects are passed on, so memory stays flat in the size of the table. A
  /// damaged value throws before the objects of its batch are delivered. Links become `RealmValue.link(_:)` (null when they
  /// point to a tombstone), links to embedded objects become `RealmValue.embedded(_:)` with
  /// the object inline.
  ///
  /// - Parameters:
  ///   - table: a table of this group.
  ///   - skip: number of leading objects to pass over without decoding them.
  ///   - selected: when given, only these properties (positions in the values) are decoded;
  ///     the others read as null. Decoding fewer columns is proportionally faster.
  ///   - body: called with each object's key and values.
  /// - Throws: ``FormatError`` for a damaged file, or whatever `body` throws.
  public func forEachObject(
    in table: Table, skip: Int = 0, columns selected: Set<Int>? = nil,
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    // The walk from a position, never stopped (one decoding loop for both walks).
    try forEachObject(in: table, from: .position(max(skip, 0)), columns: selected) { key, values in
      try body(key, values)
      return true
    }
  }

  /// The largest object key of `table`, nil when it has no objects: the last object of its
  /// cluster tree (only the rightmost path is read), or, in a file of formats 2 to 9, whose
  /// object keys are row numbers, the last row.
  public func largestObjectKey(in table: Table) throws(FormatError) -> Int64? {
    guard let index = tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    if case .legacy = tables[index].storage { return table.objectCount > 0 ? Int64(table.objectCount - 1) : nil }
    if table.clusterRoot.isNull { return nil }
    return try clusterTree.lastKey(root: table.clusterRoot)
  }

  /// The property values (public columns in spec order) of the object with key `key`, nil
  /// when `table` has no such object.
  ///
  /// With `columns`, only those properties (positions in the values) are decoded; the others
  /// read as null.
  public func object(in table: Table, key: Int64, columns selected: Set<Int>? = nil) throws(FormatError) -> [RealmValue]? {
    guard let index = tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    if case .legacy(let stored) = tables[index].storage { return try legacyObject(stored, key: key, columns: selected) }
    guard let selected else { return try objectValues(tableIndex: index, key: key, depth: 0, budget: makeBudget()) }
    guard let (leaf, row) = try clusterTree.find(root: table.clusterRoot, key: key) else { return nil }
    let allPlans = columnPlans[index]
    let positions = allPlans.indices.filter { selected.contains($0) }
    let plans = positions.map { allPlans[$0] }
    let cursors = try self.cursors(leaf, plans)
    var decoded: [RealmValue] = []
    decoded.reserveCapacity(plans.count)
    try rowValues(cursors, plans, row: row, depth: 0, budget: makeBudget(), into: &decoded)
    var values = [RealmValue](repeating: .null, count: allPlans.count)
    for (c, position) in positions.enumerated() { values[position] = decoded[c] }
    return values
  }

  // MARK: - Internals

  /// Rows decoded together (the cluster size of release builds of Realm).
  static let rowBatch = 256

  /// Position of `table` in ``tables``.
  func tableIndex(_ table: Table) -> Int? {
    guard let i = tableIndexByKey[table.key], tables[i].ref == table.ref else { return nil }
    return i
  }

  /// The work bounds of one pass over a table (see ``DecodeBudget``), charging the group's
  /// read budget or one of its own (``ReadBudget``).
  func makeBudget() -> DecodeBudget {
    DecodeBudget(
      embeddedObjects: embeddedObjectTotal &+ 1, nodes: reader.count / 8 + 1,
      reading: readBudget ?? ReadBudget(fileSize: reader.count, limits: limits))
  }

  /// The units an object of the table at `tableIndex` costs before its values: 1, and 1 per
  /// 16 bytes of the class and property names a dump prints with it (see ``ReadBudget``).
  func objectCost(_ tableIndex: Int) -> Int {
    var nameBytes = tables[tableIndex].name.utf8.count
    for plan in columnPlans[tableIndex] { nameBytes &+= plan.column.name.utf8.count }
    return ReadBudget.cost(ofPayloadBytes: nameBytes)
  }

  /// A column's leaf in one cluster: a value leaf or the per-object collection refs.
  enum Cursor {
    case scalar(ValueLeaf)
    case collection(ArrayNode)
  }

  /// The node of column `plan` in `leaf`; a cluster without it is corrupt.
  func columnNode(_ leaf: ClusterLeaf, _ plan: ColumnDecodePlan) throws(FormatError) -> ArrayNode {
    guard let node = try leaf.columnNode(plan.column.leafIndex) else {
      throw FormatError.corrupt("cluster at \(leaf.node.ref) has no leaf for column '\(plan.column.name)'", at: leaf.node.ref.rawValue)
    }
    return node
  }

  /// The values of single-valued column `plan` in `leaf`, one per object.
  func valueLeaf(_ leaf: ClusterLeaf, _ plan: ColumnDecodePlan) throws(FormatError) -> ValueLeaf {
    let node = try columnNode(leaf, plan)
    let v = try ValueLeaf(node, kind: plan.kind, nullable: plan.nullable, inCollection: false, enumValues: plan.enumValues)
    guard v.count == leaf.count else {
      throw FormatError.corrupt("column '\(plan.column.name)' has \(v.count) values in a cluster of \(leaf.count) objects", at: node.ref.rawValue)
    }
    return v
  }

  /// Builds the column accessors of one cluster leaf.
  func cursors(_ leaf: ClusterLeaf, _ plans: [ColumnDecodePlan]) throws(FormatError) -> [Cursor] {
    var out: [Cursor] = []
    out.reserveCapacity(plans.count)
    for plan in plans {
      let cursor: Cursor
      if plan.collection == .single {
        cursor = .scalar(try valueLeaf(leaf, plan))
      } else {
        let node = try columnNode(leaf, plan)
        guard node.hasRefs, node.count == leaf.count else {
          throw FormatError.corrupt("collection column '\(plan.column.name)' at \(node.ref) has \(node.count) entries in a cluster of \(leaf.count) objects", at: node.ref.rawValue)
        }
        cursor = .collection(node)
      }
      out.append(cursor)
    }
    return out
  }

  /// Appends the values of row `row` to `out`.
  func rowValues(
    _ cursors: [Cursor], _ plans: [ColumnDecodePlan], row: Int, depth: Int, budget: DecodeBudget,
    into out: inout [RealmValue]
  ) throws(FormatError) {
    for c in 0..<cursors.count {
      switch cursors[c] {
      case .scalar(let leaf):
        out.append(try value(leaf, row, target: plans[c].target, depth: depth, budget: budget) ?? .null)
      case .collection(let refs):
        out.append(try collection(refs, row, plans[c], depth: depth, budget: budget))
      }
    }
  }

  /// Appends the values of `rows` of one column leaf to `out`.
  func appendColumn(
    _ cursor: Cursor, _ plan: ColumnDecodePlan, rows: Range<Int>, budget: DecodeBudget, into out: inout [RealmValue]
  ) throws(FormatError) {
    out.reserveCapacity(rows.count)
    switch cursor {
    case .collection(let refs):
      for row in rows { out.append(try collection(refs, row, plan, depth: 0, budget: budget)) }
    case .scalar(let leaf):
      switch leaf {
      case .int(let l):
        try budget.spend(rows.count)
        for row in rows { out.append(l.value(row).map { .int($0) } ?? .null) }
      case .string(let l, let nullable):
        for row in rows {
          if let b = try l.bytes(row) {
            try budget.spend(ReadBudget.cost(ofPayloadBytes: b.count))
            out.append(.string(String(decoding: b, as: UTF8.self)))
          } else {
            try budget.spend(1)
            out.append(nullable ? .null : .string(""))
          }
        }
      case .floating(let l):
        try budget.spend(rows.count)
        for row in rows { out.append(l.value(row)) }
      default:
        for row in rows { out.append(try value(leaf, row, target: plan.target, depth: 0, budget: budget) ?? .null) }
      }
    }
  }

  /// The values of one object, found by key.
  func objectValues(tableIndex: Int, key: Int64, depth: Int, budget: DecodeBudget) throws(FormatError) -> [RealmValue]? {
    let table = tables[tableIndex]
    guard let (leaf, row) = try clusterTree.find(root: table.clusterRoot, key: key) else { return nil }
    let plans = columnPlans[tableIndex]
    // Embedded objects are usually looked up in key order: reuse the last leaf's accessors.
    let cursors: [Cursor]
    if let cached = budget.leafCursors[tableIndex], cached.leaf == leaf.node.ref {
      cursors = cached.cursors
    } else {
      cursors = try self.cursors(leaf, plans)
      budget.leafCursors[tableIndex] = (leaf.node.ref, cursors)
    }
    try budget.spend(objectCost(tableIndex))
    var values: [RealmValue] = []
    values.reserveCapacity(plans.count)
    try rowValues(cursors, plans, row: row, depth: depth, budget: budget, into: &values)
    return values
  }

  /// Element `i` of `leaf`; nil for a link to a tombstone (unresolved, §4.9).
  func value(_ leaf: ValueLeaf, _ i: Int, target: Int?, depth: Int, budget: DecodeBudget) throws(FormatError) -> RealmValue? {
    try budget.spend(1)
    switch leaf {
    case .int(let l):
      guard let v = l.value(i) else { return .null }
      return .int(v)
    case .bool(let n):
      switch n.uncheckedGet(i) {
      case 0: return .bool(false)
      case 1: return .bool(true)
      case 3: return .null  // §6.2
      case let v: throw FormatError.corrupt("bool value \(v) at index \(i) of \(n.ref)", at: n.ref.rawValue)
      }
    case .string(let l, let nullable):
      guard let b = try l.bytes(i) else { return nullable ? .null : .string("") }
      try budget.spend(b.count >> 4)
      return .string(String(decoding: b, as: UTF8.self))
    case .binary(let l, let nullable):
      guard let b = try l.bytes(i) else { return nullable ? .null : .data([]) }
      try budget.spend(b.count >> 4)
      return .data(Array(b))
    case .timestamp(let l):
      guard let t = l.value(i) else { return .null }
      return .date(t)
    case .floating(let l):
      return l.value(i)
    case .decimal(let l):
      guard let d = l.value(i) else { return .null }
      return .decimal128(d)
    case .objectId(let l):
      guard let b = l.bytes(i), let id = ObjectId(bytes: b) else { return .null }
      return .objectId(id)
    case .uuid(let l):
      guard let b = l.bytes(i), let id = RealmUUID(bytes: b) else { return .null }
      return .uuid(id)
    case .mixed(let l):
      return try mixedValue(l, i, target: target, depth: depth, budget: budget)
    case .link(let n, let plusOne):
      let raw = n.uncheckedGet(i)
      if plusOne && raw == 0 { return .null }
      let key = plusOne ? raw &- 1 : raw
      return try link(target: target, key: key, depth: depth, budget: budget)
    case .typedLink(let n):
      let t = n.uncheckedGet(i &* 2)
      let k = n.uncheckedGet(i &* 2 &+ 1)
      if t == 0 { return .null }
      return try typedLink(tableKey: (t &- 1) & 0x7FFF_FFFF, key: k &- 1, depth: depth, budget: budget)
    }
  }

  /// A mixed element, nested collections and links resolved.
  func mixedValue(_ leaf: MixedLeaf, _ i: Int, target: Int?, depth: Int, budget: DecodeBudget) throws(FormatError) -> RealmValue? {
    switch try leaf.element(i) {
    case .value(let v):
      switch v {
      case .string(let s): try budget.spend(ReadBudget.cost(ofPayloadBytes: s.utf8.count))
      case .data(let d): try budget.spend(ReadBudget.cost(ofPayloadBytes: d.count))
      default: try budget.spend(1)
      }
      return v
    case .link(let key):
      guard target != nil else { return .null }
      return try link(target: target, key: key, depth: depth, budget: budget)
    case .typedLink(let tableKey, let key):
      return try typedLink(tableKey: tableKey & 0xFFFF_FFFF, key: key, depth: depth, budget: budget)
    case .list(let ref):
      if ref.isNull { return .list([]) }
      try checkNesting(depth, ref)
      return .list(try elements(ref, kind: .mixed, nullable: true, target: nil, depth: depth + 1, budget: budget))
    case .dictionary(let ref):
      if ref.isNull { return .dictionary([]) }
      try checkNesting(depth, ref)
      return .dictionary(try dictionary(ref, intKeys: false, target: nil, depth: depth + 1, budget: budget))
    }
  }

  func checkNesting(_ depth: Int, _ ref: Ref) throws(FormatError) {
    guard depth < limits.maxNesting else {
      throw FormatError.limit("values nest deeper than \(limits.maxNesting) levels", at: ref.rawValue)
    }
  }

  /// A link to object `key` of the table at `target`; embedded targets are expanded inline.
  func link(target: Int?, key: Int64, depth: Int, budget: DecodeBudget) throws(FormatError) -> RealmValue? {
    if key < 0 { return nil }  // tombstone (unresolved link)
    guard let target else { throw FormatError.corrupt("a link column has no target table") }
    // Fields, not a copy of the table: this runs once per link.
    guard tables[target].isEmbedded else {
      try budget.spend(tables[target].name.utf8.count >> 4)
      return .link(ObjectLink(className: linkNames[target], key: key))
    }
    let table = tables[target]
    budget.embeddedObjects -= 1
    guard budget.embeddedObjects >= 0 else {
      throw FormatError.limit("embedded objects of one object expand to more objects than the file has (shared or cyclic embedded links)")
    }
    try checkNesting(depth, table.clusterRoot)
    guard let values = try objectValues(tableIndex: target, key: key, depth: depth + 1, budget: budget) else {
      throw FormatError.corrupt("a link points to embedded object \(key) of '\(table.name)', which does not exist")
    }
    let plans = columnPlans[target]
    var properties: [NamedValue] = []
    properties.reserveCapacity(values.count)
    for (plan, v) in zip(plans, values) { properties.append(NamedValue(plan.column.name, v)) }
    return .embedded(EmbeddedObject(className: linkNames[target], key: key, properties: properties))
  }

  /// A typed link (mixed, dictionaries of links).
  func typedLink(tableKey: Int64, key: Int64, depth: Int, budget: DecodeBudget) throws(FormatError) -> RealmValue? {
    guard let target = tableIndexByKey[tableKey] else {
      throw FormatError.corrupt("a typed link points to table key \(tableKey), which does not exist")
    }
    return try link(target: target, key: key, depth: depth, budget: budget)
  }
}

extension Group {
  /// Calls `body` with every object of the Object Store class `className` (top-level or
  /// embedded), as ``forEachObject(in:skip:columns:_:)`` does.
  ///
  /// - Throws: ``FormatError`` (`corrupt`) when the file has no such class, a damaged file's
  ///   error, or whatever `body` throws.
  public func forEachObject(
    ofClass className: String, skip: Int = 0, _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    guard let table = table(forClass: className) else {
      throw FormatError.corrupt("the file has no class '\(className)'")
    }
    try forEachObject(in: table, skip: skip, body)
  }

  /// The number of objects of the Object Store class `className`, nil when there is no such
  /// class.
  public func objectCount(ofClass className: String) -> Int? {
    table(forClass: className)?.objectCount
  }
}
