import RealmModel
/// Backlink checks: every backlink column must mirror the forward links into its table
/// exactly (§4.8, §6.12), and embedded objects must have exactly one parent (§6.14).
extension Group {
  /// Identifies one backlink relation: links from `originColumn` of `originTable` into
  /// `targetTable`.
  struct LinkRelation: Hashable {
    var targetTable: Int64
    var originTable: Int64
    var originColumn: Int64
  }

  /// Forward links per relation: target object key -> origin object keys.
  typealias LinkMap = [LinkRelation: [Int64: [Int64]]]

  func checkBacklinks(_ log: inout ProblemLog) {
    var forward: LinkMap = [:]
    for table in tables {
      do throws(FormatError) {
        try collectForwardLinks(table, into: &forward)
      } catch {
        log.add(error, "the links of table '\(table.name)' cannot be read")
      }
    }
    var seen = Set<LinkRelation>()
    for table in tables {
      let backlinkColumns = table.columns.filter(\.isBacklink)
      guard !backlinkColumns.isEmpty || table.isEmbedded else { continue }
      // Parents of embedded objects are counted from the forward links, where damage starts.
      var parents: [Int64: Int] = [:]
      if table.isEmbedded {
        for (relation, targets) in forward where relation.targetTable == table.key {
          for (key, origins) in targets { parents[key, default: 0] += origins.count }
        }
      }
      for column in backlinkColumns {
        guard let originTable = column.oppositeTableKey, let originColumn = column.oppositeColumnKey else {
          log.add(.backlink, at: table.ref.rawValue, "backlink column \(column.leafIndex) of '\(table.name)' names no origin")
          continue
        }
        let relation = LinkRelation(targetTable: table.key, originTable: originTable, originColumn: originColumn.rawValue)
        seen.insert(relation)
        var expected = forward[relation] ?? [:]
        let origin = self.table(key: originTable).map { "\($0.name).\($0.column(key: originColumn)?.name ?? "?")" } ?? "table \(originTable)"
        do throws(FormatError) {
          try forEachBacklinkList(table, column) { (key, origins) throws(FormatError) in
            let wanted = (expected.removeValue(forKey: key) ?? []).sorted()
            if origins.sorted() != wanted {
              log.add(.backlink, at: table.ref.rawValue, "object \(key) of '\(table.name)' has backlinks \(Self.short(origins)) from \(origin) but is linked from \(Self.short(wanted))")
            }
          }
        } catch {
          log.add(error, "backlinks of '\(table.name)' from \(origin) cannot be read")
        }
        for (key, origins) in expected where !origins.isEmpty {
          log.add(.backlink, at: table.ref.rawValue, "\(origin) links \(origins.count) times to object \(key) of '\(table.name)', which does not exist")
        }
      }
      if table.isEmbedded {
        do throws(FormatError) {
          try forEachKey(table) { (key) throws(FormatError) in
            let n = parents[key] ?? 0
            if n != 1 {
              log.add(.embeddedParent, at: table.ref.rawValue, "embedded object \(key) of '\(table.name)' has \(n) parents, expected exactly one")
            }
          }
        } catch {
          log.add(error, "the objects of '\(table.name)' cannot be listed")
        }
      }
    }
    for (relation, targets) in forward where !seen.contains(relation) && targets.values.contains(where: { !$0.isEmpty }) {
      let origin = self.table(key: relation.originTable)?.name ?? "table \(relation.originTable)"
      let target = self.table(key: relation.targetTable)?.name ?? "table \(relation.targetTable)"
      log.add(.backlink, "links from '\(origin)' to '\(target)' have no backlink column")
    }
  }

  private static func short(_ keys: [Int64]) -> String {
    keys.count <= 8 ? "\(keys)" : "\(Array(keys.prefix(8)))… (\(keys.count))"
  }

  /// Calls `body` with every object key of `table` (not tombstones).
  private func forEachKey(_ table: Table, _ body: (Int64) throws(FormatError) -> Void) throws(FormatError) {
    let budget = makeBudget()
    try clusterTree.forEachLeaf(root: table.clusterRoot, budget: budget) { (leaf) throws(FormatError) in
      try budget.spend(leaf.count)
      for j in 0..<leaf.count { try body(leaf.key(j)) }
    }
  }

  /// Calls `body` with each object's key and origin keys from one backlink column (§6.12):
  /// 0 = none, odd = one origin (`v >> 1`), even = ref to a list (plain array or B+-tree).
  ///
  /// The lists are charged to one budget (``makeBudget()``): a damaged file whose backlink
  /// lists share nodes cannot make the check walk them without end.
  private func forEachBacklinkList(_ table: Table, _ column: Column, _ body: (Int64, [Int64]) throws(FormatError) -> Void) throws(FormatError) {
    let budget = makeBudget()
    try clusterTree.forEachLeaf(root: table.clusterRoot, budget: budget) { (leaf) throws(FormatError) in
      guard let node = try leaf.columnNode(column.leafIndex), node.hasRefs, node.count == leaf.count else {
        throw FormatError.corrupt("backlink column leaf does not match its cluster", at: leaf.node.ref.rawValue)
      }
      for j in 0..<leaf.count {
        var origins: [Int64] = []
        switch RefOrTagged(raw: node.uncheckedGet(j)) {
        case .null: break
        case .tagged(let v): origins.append(Int64(bitPattern: v))
        case .ref(let r):
          try bPlusTree.forEachLeaf(root: r, budget: budget) { (list) throws(FormatError) in
            let ints = try IntLeaf(list, nullable: false)
            try budget.spend(ints.count)
            for i in 0..<ints.count { origins.append(ints.value(i) ?? 0) }
          }
        }
        try budget.spend(1)
        try body(leaf.key(j), origins)
      }
    }
  }

  /// Adds every link stored in `table` (single links, link collections, links inside mixed
  /// values and dictionaries) to `map`. Links to tombstones (negative keys) are left out.
  private func collectForwardLinks(_ table: Table, into map: inout LinkMap) throws(FormatError) {
    let columns = table.columns.filter { ($0.isLink || $0.type == .mixed) && !$0.isBacklink }
    guard !columns.isEmpty, let index = tableIndex(table) else { return }
    let plans = columnPlans[index]
    // Every link read is charged to one budget (``makeBudget()``), so link lists that share
    // nodes in a damaged file cannot make the check walk them without end.
    let budget = makeBudget()
    try clusterTree.forEachLeaf(root: table.clusterRoot, budget: budget) { (leaf) throws(FormatError) in
      for column in columns {
        guard let node = try leaf.columnNode(column.leafIndex), let plan = plans.first(where: { $0.column.key == column.key }) else { continue }
        func add(_ target: Int64?, _ key: Int64, _ origin: Int64) {
          guard let target, key >= 0 else { return }
          map[LinkRelation(targetTable: target, originTable: table.key, originColumn: column.key.rawValue), default: [:]][key, default: []].append(origin)
        }
        if column.isLink && column.collectionKind == .single {
          let links = try ValueLeaf(node, kind: .link, nullable: true, inCollection: false)
          guard case .link(let n, _) = links else { continue }
          try budget.spend(leaf.count)
          for j in 0..<min(n.count, leaf.count) where n.uncheckedGet(j) != 0 {
            add(column.oppositeTableKey, n.uncheckedGet(j) &- 1, leaf.key(j))
          }
        } else if column.isLink && column.collectionKind != .dictionary {
          guard node.hasRefs else { continue }
          for j in 0..<min(node.count, leaf.count) {
            guard case .ref(let r) = RefOrTagged(raw: node.uncheckedGet(j)) else { continue }
            try bPlusTree.forEachLeaf(root: r, budget: budget) { (list) throws(FormatError) in
              let keys = try IntLeaf(list, nullable: false)
              try budget.spend(keys.count)
              for i in 0..<keys.count { add(column.oppositeTableKey, keys.value(i) ?? -1, leaf.key(j)) }
            }
          }
        } else {
          // Mixed values and dictionaries: decode and collect the links they hold.
          let cursor: Cursor
          if plan.collection == .single {
            cursor = .scalar(try ValueLeaf(node, kind: plan.kind, nullable: plan.nullable, inCollection: false))
          } else {
            guard node.hasRefs, node.count == leaf.count else { continue }
            cursor = .collection(node)
          }
          for j in 0..<leaf.count {
            var values: [RealmValue] = []
            try rowValues([cursor], [plan], row: j, depth: 0, budget: budget, into: &values)
            for value in values { forEachLink(in: value, depth: 0) { add(self.table(forLinkName: $0)?.key, $1, leaf.key(j)) } }
          }
        }
      }
    }
  }

  /// Calls `body` with the class name and key of every link in `value` (embedded objects
  /// count as links; their own properties belong to their table and are not visited).
  private func forEachLink(in value: RealmValue, depth: Int, _ body: (String, Int64) -> Void) {
    guard depth < limits.maxNesting else { return }
    switch value {
    case .link(let l): body(l.className, l.key)
    case .embedded(let e): body(e.className, e.key)
    case .list(let items), .set(let items): for v in items { forEachLink(in: v, depth: depth + 1, body) }
    case .dictionary(let entries): for e in entries { forEachLink(in: e.value, depth: depth + 1, body) }
    default: break
    }
  }

  /// The table that links show as `name` (a class name, or a plain table name).
  func table(forLinkName name: String) -> Table? {
    table(forClass: name) ?? table(named: name)
  }
}
