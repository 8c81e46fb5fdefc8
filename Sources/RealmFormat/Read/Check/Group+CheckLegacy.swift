import RealmModel
/// `open --check` for files of formats 2-9 (realm-legacy-format.md §4-§7): the old table
/// layout has no cluster trees, so its tables are checked column by column.
extension Group {
  /// Checks every stored table (the `pk` table included): B+-tree shapes and counts, every
  /// column one value per row, every value decodable, links and link lists pointing to rows
  /// that exist, backlinks mirroring them exactly, search indexes present where the spec
  /// says, subtables matching their spec.
  func checkLegacy(_ layout: LegacyGroupLayout, _ log: inout ProblemLog) {
    var seen = Set<String>()
    for t in layout.stored where !seen.insert(t.name).inserted {
      log.add(.unreadable, at: t.topRef.rawValue, "two tables are called '\(t.name)'")
    }
    var budget = reader.count / 8 + 1
    for table in layout.stored {
      checkLegacyColumns(table.spec, roots: table.roots, indexes: table.indexRoots, rows: table.rowCount,
        what: "table '\(table.name)'", depth: 0, budget: &budget, &log)
    }
    checkLegacyLinks(layout, &log)
  }

  // MARK: - Columns

  /// Checks the columns of a table or subtable that should all hold `rows` values.
  private func checkLegacyColumns(
    _ spec: LegacySpec, roots: [Ref], indexes: [Ref], rows: Int, what: String, depth: Int, budget: inout Int,
    _ log: inout ProblemLog
  ) {
    for (i, column) in spec.columns.enumerated() {
      let name = column.type == .backlink ? "backlinks \(i)" : "'\(column.name ?? "")'"
      let label = "column \(name) of \(what)"
      if column.isIndexed {
        if indexes[i].isNull {
          log.add(.unreadable, at: spec.ref.rawValue, "\(label) is indexed but has no search index")
        } else if let node = try? ArrayNode(elements: reader, indexes[i]), !node.hasRefs {
          log.add(.unreadable, at: indexes[i].rawValue, "the search index of \(label) is not a has-refs node")
        }
      }
      let kind = LegacyTable.storedKind(column)
      let count: Int?
      switch column.type {
      case .timestamp:
        count = checkLegacyPair(roots[i], names: ["seconds", "nanoseconds"], kinds: [.ints(nullable: true), .ints(nullable: false)], label: label, budget: &budget, &log)
      case .mixed:
        count = checkLegacyPair(roots[i], names: ["types", "data"], kinds: [.ints(nullable: false), .refs], label: label, budget: &budget, &log)
      default:
        count = checkLegacyTree(roots[i], kind: kind.leafKind, label: label, budget: &budget, &log)
      }
      guard let count else { continue }
      if count != rows {
        log.add(.columnLength, at: roots[i].rawValue, "\(label) holds \(count) values for \(rows) rows")
        continue
      }
      switch column.type {
      case .oldTable:
        if let sub = column.subspec {
          checkLegacySubtables(roots[i], spec: sub, label: label, depth: depth, budget: &budget, &log)
        }
      case .oldStringEnum:
        let keys = checkLegacyTree(column.enumKeys, kind: .strings(nullable: column.isNullable), label: "the values of \(label)", budget: &budget, &log)
        if keys != nil { checkLegacyValues(.enumerated(keys: column.enumKeys, nullable: column.isNullable), root: roots[i], rows: rows, label: label, &log) }
      case .link, .linkList, .backlink, .mixed:
        break  // checked with the links, or not read at all (mixed values are dropped)
      default:
        checkLegacyValues(kind, root: roots[i], rows: rows, label: label, &log)
      }
    }
  }

  /// Decodes every value of a column (string offsets, enum indexes, ...).
  private func checkLegacyValues(_ kind: LegacyValueKind, root: Ref, rows: Int, label: String, _ log: inout ProblemLog) {
    do throws(FormatError) {
      let context = LegacyReadContext(reader: reader, limits: limits, budget: makeBudget())
      var scan = try LegacyColumnScan(kind: kind, root: root, context: context)
      var values: [RealmValue] = []
      var done = 0
      while done < rows {
        let n = min(Group.rowBatch, rows - done)
        values.removeAll(keepingCapacity: true)
        try scan.append(n, into: &values)
        done += n
      }
    } catch {
      log.add(error, "the values of \(label) cannot be read")
    }
  }

  /// Checks a `[a, b]` pair of B+-trees of equal length (timestamps, old mixed values).
  private func checkLegacyPair(
    _ ref: Ref, names: [String], kinds: [LegacyLeafKind], label: String, budget: inout Int, _ log: inout ProblemLog
  ) -> Int? {
    guard let pair = try? ArrayNode(elements: reader, ref), pair.hasRefs, !pair.isInner, pair.count >= 2,
      case .ref(let a)? = try? pair.refOrTagged(0), case .ref(let b)? = try? pair.refOrTagged(1)
    else {
      log.add(.unreadable, at: ref.rawValue, "\(label) is not a [\(names[0]), \(names[1])] pair")
      return nil
    }
    let first = checkLegacyTree(a, kind: kinds[0], label: "the \(names[0]) of \(label)", budget: &budget, &log)
    let second = checkLegacyTree(b, kind: kinds[1], label: "the \(names[1]) of \(label)", budget: &budget, &log)
    if let first, let second, first != second {
      log.add(.columnLength, at: ref.rawValue, "\(label) has \(first) \(names[0]) but \(second) \(names[1])")
    }
    return first
  }

  /// Checks every subtable of a subtable column against its spec.
  private func checkLegacySubtables(
    _ root: Ref, spec: LegacySpec, label: String, depth: Int, budget: inout Int, _ log: inout ProblemLog
  ) {
    guard depth < limits.maxDepth else {
      log.add(.limit, at: root.rawValue, "subtables of \(label) nest deeper than \(limits.maxDepth) levels")
      return
    }
    forEachLegacyCell(root, label: label, &log) { (row, raw, log) in
      guard case .ref(let columnsRef) = RefOrTagged(raw: raw) else {
        if raw != 0 { log.add(.unreadable, at: root.rawValue, "row \(row) of \(label) holds \(raw), not a subtable ref") }
        return
      }
      let what = "the subtable of row \(row) of \(label)"
      do throws(FormatError) {
        let columns = try ArrayNode(elements: reader, columnsRef)
        let (roots, indexes) = try LegacyTable.columnRoots(columns, spec: spec, what: what)
        let rows = try spec.columns.isEmpty ? 0 : LegacyTable.size(of: spec.columns[0], root: roots[0], reader: reader)
        checkLegacyColumns(spec, roots: roots, indexes: indexes, rows: rows, what: what, depth: depth + 1, budget: &budget, &log)
      } catch {
        log.add(error, "\(what) cannot be read")
      }
    }
  }

  /// Calls `body` with every raw element of the integer B+-tree at `root`.
  private func forEachLegacyCell(
    _ root: Ref, label: String, _ log: inout ProblemLog, _ body: (Int, Int64, inout ProblemLog) -> Void
  ) {
    do throws(FormatError) {
      var stream = try LegacyLeafStream(reader: reader, root: root, kind: .refs, limits: limits, budget: makeBudget())
      var row = 0
      try stream.takeAll(limit: Int.max) { (leaf, range) throws(FormatError) in
        guard case .refs(let node) = leaf else { return }
        for i in range {
          body(row, node.uncheckedGet(i), &log)
          row += 1
        }
      }
    } catch {
      log.add(error, "\(label) cannot be read")
    }
  }

  // MARK: - Trees

  /// Walks a whole old B+-tree, checking inner nodes (counts, offsets, equal leaf depth) and
  /// decoding every leaf as `kind`; returns its element count, nil when it cannot be walked.
  func checkLegacyTree(_ root: Ref, kind: LegacyLeafKind, label: String, budget: inout Int, _ log: inout ProblemLog) -> Int? {
    var leafDepth: Int?
    func visit(_ ref: Ref, level: Int, _ log: inout ProblemLog) throws(FormatError) -> Int {
      budget -= 1
      guard budget >= 0 else { throw FormatError.limit("the walk visits more nodes than the file can hold", at: ref.rawValue) }
      guard level <= limits.maxDepth else { throw FormatError.limit("the B+-tree is deeper than \(limits.maxDepth)", at: ref.rawValue) }
      let node = try ArrayNode(elements: reader, ref)
      guard node.isInner else {
        if let leafDepth, leafDepth != level {
          log.add(.subtreeCount, at: ref.rawValue, "a leaf of \(label) is at depth \(level), others at \(leafDepth)")
        }
        leafDepth = level
        return try LegacyLeaf(node, kind: kind).count
      }
      let inner = try LegacyInnerNode(node)
      var total = 0
      for c in 0..<inner.childCount {
        let n = try visit(try inner.child(c), level: level + 1, &log)
        if let k = inner.elementsPerChild {
          if c < inner.childCount - 1 ? n != k : n > k {
            log.add(.subtreeCount, at: ref.rawValue, "child \(c) of an inner node of \(label) holds \(n) elements; the node says \(k) per child")
          }
        } else if c < inner.childCount - 1, inner.start(ofChild: c + 1) != total + n {
          log.add(.subtreeCount, at: ref.rawValue, "the offsets of an inner node of \(label) do not match its children")
        }
        total += n
      }
      if total != inner.total {
        log.add(.subtreeCount, at: ref.rawValue, "an inner node of \(label) says \(inner.total) elements but its children hold \(total)")
      }
      return total
    }
    do throws(FormatError) {
      return try visit(root, level: 0, &log)
    } catch {
      log.add(error, "\(label) cannot be walked")
      return nil
    }
  }

  // MARK: - Links

  /// One link relation: link column `column` of table `origin` into table `target`.
  private struct LegacyRelation: Hashable {
    var origin: Int
    var column: Int
    var target: Int
  }

  /// Links and link lists must point to existing rows, and every relation must be mirrored
  /// exactly by the backlink column of its target (§7.3-§7.5).
  private func checkLegacyLinks(_ layout: LegacyGroupLayout, _ log: inout ProblemLog) {
    let tables = layout.stored
    var forward: [LegacyRelation: [Int: [Int]]] = [:]
    for table in tables {
      for (c, column) in table.spec.columns.enumerated() where column.type == .link || column.type == .linkList {
        guard let target = column.table, target < tables.count else { continue }
        let relation = LegacyRelation(origin: table.index, column: c, target: target)
        let label = "link column '\(column.name ?? "")' of table '\(table.name)'"
        let targetRows = tables[target].rowCount
        var map: [Int: [Int]] = [:]
        forEachLegacyLinkCell(table.roots[c], isList: column.type == .linkList, label: label, &log) { row, targetRow, log in
          guard targetRow >= 0, targetRow < targetRows else {
            log.add(.linkTarget, at: table.roots[c].rawValue, "row \(row) of \(label) links to row \(targetRow) of '\(tables[target].name)', which has \(targetRows) rows")
            return
          }
          map[targetRow, default: []].append(row)
        }
        forward[relation] = map
      }
    }
    var mirrored = Set<LegacyRelation>()
    for table in tables {
      for (c, column) in table.spec.columns.enumerated() where column.type == .backlink {
        guard let origin = column.table, let originColumn = column.originColumn, origin < tables.count,
          originColumn < tables[origin].spec.columns.count
        else { continue }
        let relation = LegacyRelation(origin: origin, column: originColumn, target: table.index)
        mirrored.insert(relation)
        var expected = forward[relation] ?? [:]
        let from = "'\(tables[origin].name).\(tables[origin].spec.columns[originColumn].name ?? "")'"
        forEachLegacyBacklinkCell(table.roots[c], label: "backlinks \(c) of table '\(table.name)'", &log) { row, origins, log in
          let wanted = (expected.removeValue(forKey: row) ?? []).sorted()
          if origins.sorted() != wanted {
            log.add(.backlink, at: table.roots[c].rawValue, "row \(row) of '\(table.name)' has backlinks \(Group.shortList(origins)) from \(from) but is linked from \(Group.shortList(wanted))")
          }
        }
        for (row, origins) in expected where !origins.isEmpty {
          log.add(.backlink, at: table.roots[c].rawValue, "\(from) links \(origins.count) times to row \(row) of '\(table.name)', which has no backlink entry")
        }
      }
    }
    for (relation, map) in forward where !mirrored.contains(relation) && !map.isEmpty {
      log.add(.backlink, "links from '\(tables[relation.origin].name)' to '\(tables[relation.target].name)' have no backlink column")
    }
  }

  static func shortList(_ rows: [Int]) -> String {
    rows.count <= 8 ? "\(rows)" : "\(Array(rows.prefix(8)))… (\(rows.count))"
  }

  /// Calls `body` with (row, target row) for every link of a link or link-list column.
  private func forEachLegacyLinkCell(
    _ root: Ref, isList: Bool, label: String, _ log: inout ProblemLog, _ body: (Int, Int, inout ProblemLog) -> Void
  ) {
    forEachLegacyCell(root, label: label, &log) { row, raw, log in
      if !isList {
        if raw != 0 { body(row, Int(clamping: raw) &- 1, &log) }
        return
      }
      guard case .ref(let list) = RefOrTagged(raw: raw) else {
        if raw != 0 { log.add(.unreadable, at: root.rawValue, "row \(row) of \(label) holds \(raw), not a link-list ref") }
        return
      }
      forEachLegacyInteger(list, label: "the link list of row \(row) of \(label)", &log) { body(row, $0, &$1) }
    }
  }

  /// Calls `body` with (row, origin rows) for every cell of a backlink column (§7.5): 0 =
  /// none, odd = one origin row, even = a ref to a B+-tree of origin rows.
  private func forEachLegacyBacklinkCell(_ root: Ref, label: String, _ log: inout ProblemLog, _ body: (Int, [Int], inout ProblemLog) -> Void) {
    forEachLegacyCell(root, label: label, &log) { row, raw, log in
      switch RefOrTagged(raw: raw) {
      case .null: body(row, [], &log)
      case .tagged(let v): body(row, [Int(clamping: v)], &log)
      case .ref(let list):
        var origins: [Int] = []
        forEachLegacyInteger(list, label: "the backlinks of row \(row) of \(label)", &log) { v, _ in origins.append(v) }
        body(row, origins, &log)
      }
    }
  }

  /// Calls `body` with every element of the plain integer B+-tree at `root`.
  private func forEachLegacyInteger(_ root: Ref, label: String, _ log: inout ProblemLog, _ body: (Int, inout ProblemLog) -> Void) {
    do throws(FormatError) {
      var stream = try LegacyLeafStream(reader: reader, root: root, kind: .ints(nullable: false), limits: limits, budget: makeBudget())
      try stream.takeAll(limit: Int.max) { (leaf, range) throws(FormatError) in
        guard case .ints(let l) = leaf else { return }
        for i in range { body(Int(clamping: l.value(i) ?? -1), &log) }
      }
    } catch {
      log.add(error, "\(label) cannot be read")
    }
  }
}
