import RealmModel
/// Resolving values before they are stored: links to keys, embedded objects to rows of their
/// table, backlink bookkeeping, set order; and writing the column leaves of a cluster.
extension RealmFileBuilder {
  func className(_ t: Int) -> String { tables[t].objectSchema?.name ?? tables[t].name }

  /// The value as it is stored for column `c` of table `t` (see the type comment); nil when
  /// it is stored as it is (most values: no new row array is made for them).
  func resolve(_ value: RealmValue, table t: Int, column c: Int, originKey: Int64) throws(FormatError) -> RealmValue? {
    // Fast path without copying the column's plan: a single value already of its type.
    let kind = columnKinds[t][c]
    if kind.collection == .single && kind.type != .object && kind.type != .mixed && kind.matches(value) {
      return nil
    }
    guard let p = tables[t].columns[c].property else { return nil }
    do throws(FormatError) {
      if p.type == .object {
        return try resolveLinks(value, property: p, table: t, column: c, originKey: originKey)
      }
      switch p.collection {
      case .single:
        if p.type == .mixed {
          try checkNesting(value)
          try recordMixedLinks(value, table: t, column: c, originKey: originKey)
          return nil
        }
        let v = try TypedLeafEncoder.coerced(value, to: p.type)
        if v.isNull && !p.isOptional { throw FormatError.corrupt("a value is required but found null") }
        return v
      case .list, .set:
        var elements = try collectionElements(value)
        for i in elements.indices {
          elements[i] = try TypedLeafEncoder.coerced(elements[i], to: p.type)
          if elements[i].isNull && !p.isOptional && p.type != .mixed {
            throw FormatError.corrupt("the elements are required but one is null")
          }
          if p.type == .mixed {
            try checkNesting(elements[i])
            try recordMixedLinks(elements[i], table: t, column: c, originKey: originKey)
          }
        }
        return p.collection == .set ? .set(SetOrdering.sortedUnique(elements, format: fileFormat, mixedSet: p.type == .mixed)) : .list(elements)
      case .dictionary:
        guard case .dictionary(var entries) = value else {
          if value.isNull { return .dictionary([]) }
          throw TypedLeafEncoder.mismatch("dictionary", value)
        }
        for i in entries.indices {
          entries[i].value = try TypedLeafEncoder.coerced(entries[i].value, to: p.type)
          if entries[i].value.isNull && !p.isOptional && p.type != .mixed {
            throw FormatError.corrupt("the values are required but '\(entries[i].key)' is null")
          }
          if p.type == .mixed {
            try checkNesting(entries[i].value)
            try recordMixedLinks(entries[i].value, table: t, column: c, originKey: originKey)
          }
        }
        return .dictionary(MixedLeafEncoder.sortedEntries(entries, format: fileFormat))
      }
    } catch {
      throw FormatError.corrupt("property '\(className(t)).\(p.name)' of object \(originKey): \(error.detail)")
    }
  }

  /// Refuses a collection nested in a Mixed value below format 24 (§6.11).
  private func checkNesting(_ value: RealmValue) throws(FormatError) {
    guard fileFormat < .v24 else { return }
    switch value {
    case .list: throw FormatError.corrupt("holds a nested List inside a Mixed (format 24 only)")
    case .dictionary: throw FormatError.corrupt("holds a nested Dictionary inside a Mixed (format 24 only)")
    default: return
    }
  }

  /// Elements of a list or set value (null = empty).
  private func collectionElements(_ value: RealmValue) throws(FormatError) -> [RealmValue] {
    switch value {
    case .list(let e), .set(let e): return e
    case .null: return []
    default: throw TypedLeafEncoder.mismatch("list", value)
    }
  }

  /// Link properties: single links stay `.link` (nil: unchanged) or `.null`, embedded
  /// objects (written first) and list/set elements become `.int(target key)`, dictionary
  /// values `.link` (stored as typed links).
  private func resolveLinks(
    _ value: RealmValue, property p: Property, table t: Int, column c: Int, originKey: Int64
  ) throws(FormatError) -> RealmValue? {
    guard let target = tables[t].columns[c].oppositeTable else { return nil }
    let backlink = linkBacklinks[t][c]
    func link(_ v: RealmValue) throws(FormatError) -> Int64? {
      let key: Int64
      switch v {
      case .null: return nil
      case .link(let l):
        guard !tables[target].isEmbedded else {
          throw FormatError.corrupt("a link to embedded class '\(className(target))' must hold the object inline")
        }
        guard l.className == className(target) else {
          throw FormatError.corrupt("expected a link to '\(className(target))' but found one to '\(l.className)'")
        }
        key = l.key
      case .embedded(let e):
        guard tables[target].isEmbedded else {
          throw FormatError.corrupt("expected a link to '\(className(target))' but found an embedded object")
        }
        key = try appendEmbedded(e, table: target)
      default:
        throw TypedLeafEncoder.mismatch("object", v)
      }
      try recordLink(target: key, origin: originKey, table: target, backlink: backlink)
      return key
    }
    switch p.collection {
    case .single:
      let key = try link(value)
      guard case .embedded = value else { return nil }
      return key.map(RealmValue.int) ?? .null
    case .list, .set:
      var keys = [Int64]()
      for e in try collectionElements(value) {
        guard let k = try link(e) else { throw FormatError.corrupt("a list or set of links cannot hold null") }
        keys.append(k)
      }
      if p.collection == .set {
        keys.sort()
        var unique = [Int64]()
        for k in keys where unique.last != k { unique.append(k) }
        return .set(unique.map(RealmValue.int))
      }
      return .list(keys.map(RealmValue.int))
    case .dictionary:
      guard case .dictionary(var entries) = value else {
        if value.isNull { return .dictionary([]) }
        throw TypedLeafEncoder.mismatch("dictionary", value)
      }
      for i in entries.indices {
        entries[i].value = try link(entries[i].value).map { .link(ObjectLink(className: className(target), key: $0)) } ?? .null
      }
      return .dictionary(MixedLeafEncoder.sortedEntries(entries, format: fileFormat))
    }
  }

  /// Writes an embedded object as a row of its table and returns its key.
  private func appendEmbedded(_ object: EmbeddedObject, table e: Int) throws(FormatError) -> Int64 {
    if !object.className.isEmpty && object.className != className(e) {
      throw FormatError.corrupt("expected an embedded '\(className(e))' but found a '\(object.className)'")
    }
    var values = [RealmValue]()
    values.reserveCapacity(tables[e].columns.count)
    for column in tables[e].columns {
      values.append(object.properties.first { $0.name == column.name }?.value ?? .null)
    }
    for p in object.properties where !tables[e].columns.contains(where: { $0.name == p.name }) {
      throw FormatError.corrupt("embedded class '\(className(e))' has no property '\(p.name)'")
    }
    let key = try nextKey(table: e, requested: nil)
    try appendRow(table: e, key: key, values: values)
    return key
  }

  /// Records links inside a Mixed value (also in nested collections) for the backlink column
  /// core creates in the target for this Mixed column (§4.8).
  private func recordMixedLinks(_ value: RealmValue, table t: Int, column c: Int, originKey: Int64) throws(FormatError) {
    switch value {
    case .link(let l):
      guard let target = tableIndex[l.className] else {
        throw FormatError.corrupt("a mixed value links to class '\(l.className)', which is not in the schema")
      }
      guard !tables[target].isEmbedded else {
        throw FormatError.corrupt("a mixed value cannot link to embedded class '\(l.className)'")
      }
      let source = BacklinkSource(originTable: t, originLeaf: c, targetTable: target)
      if backlinkColumn[source] == nil {
        _ = tables[target].addBacklink(originTable: t, originColumn: tables[t].columns[c].colKey)
        backlinkColumn[source] = tables[target].backlinks.count - 1
        backlinkPairs[target].append(SortedPairRuns(scratch: scratch, bySecond: false))
      }
      try recordLink(target: l.key, origin: originKey, table: target, backlink: backlinkColumn[source] ?? -1)
    case .list(let elements):
      for e in elements { try recordMixedLinks(e, table: t, column: c, originKey: originKey) }
    case .dictionary(let entries):
      for e in entries { try recordMixedLinks(e.value, table: t, column: c, originKey: originKey) }
    case .set:
      throw FormatError.corrupt("a mixed value cannot hold a set")
    case .embedded(let e):
      throw FormatError.corrupt("a mixed value cannot hold an embedded object of class '\(e.className)'")
    default:
      break
    }
  }

  /// Records a link for backlink column `b` (none when -1) of target table `table`.
  private func recordLink(target: Int64, origin: Int64, table: Int, backlink b: Int) throws(FormatError) {
    guard target >= 0 else { throw FormatError.corrupt("link to negative object key \(target)") }
    guard b >= 0 else { return }
    backlinkPairs[table][b].append(
      WordPair(first: UInt64(bitPattern: target), second: UInt64(bitPattern: origin)))
  }

  // MARK: - Clusters

  /// Writes every complete cluster of 256 pending objects.
  func flushFullClusters() throws(FormatError) {
    for t in states.indices {
      while states[t].pendingKeys.count >= ClusterTreeWriter.fanOut {
        try flushCluster(table: t, count: ClusterTreeWriter.fanOut)
      }
    }
  }

  /// Writes the public column leaves of the first `n` pending objects of table `t`.
  func flushCluster(table t: Int, count n: Int) throws(FormatError) {
    let rows = states[t].pendingRows[0..<n]
    var refs = [Ref]()
    refs.reserveCapacity(tables[t].columns.count)
    for (c, column) in tables[t].columns.enumerated() {
      let values = ArraySlice(rows.map { $0[c] })
      refs.append(try columnLeaf(column, values))
    }
    let start = states[t].keys.count
    states[t].keys.append(contentsOf: states[t].pendingKeys[0..<n])
    states[t].clusters.append((start, n, refs))
    states[t].pendingKeys.removeFirst(n)
    states[t].pendingRows.removeFirst(n)
  }

  /// The leaf of one column for resolved values (§6).
  private func columnLeaf(_ column: ColumnLayout, _ values: ArraySlice<RealmValue>) throws(FormatError) -> Ref {
    guard let p = column.property else { return .null }
    let nullable = column.attributes.contains(.nullable)
    switch p.collection {
    case .single:
      if p.type == .object {
        var keys = [Int64?]()
        keys.reserveCapacity(values.count)
        for v in values {
          switch v {
          case .int(let k): keys.append(k)
          case .link(let l): keys.append(l.key)
          default: keys.append(nil)
          }
        }
        return ScalarLeafEncoder.links(keys, into: &sink)
      }
      return try TypedLeafEncoder.leaf(
        type: p.type, nullable: nullable, values: values, tableKeys: tableKeys, format: fileFormat, into: &sink)
    case .list, .set:
      var refs = [Ref]()
      refs.reserveCapacity(values.count)
      for v in values {
        guard case .list(let elements) = v else {
          guard case .set(let elements) = v else { refs.append(.null); continue }
          refs.append(try collection(elements, p, nullable: nullable))
          continue
        }
        refs.append(try collection(elements, p, nullable: nullable))
      }
      return CollectionLeafEncoder.collectionRefs(refs, into: &sink)
    case .dictionary:
      var refs = [Ref]()
      refs.reserveCapacity(values.count)
      for v in values {
        guard case .dictionary(let entries) = v else { refs.append(.null); continue }
        refs.append(try MixedLeafEncoder.dictionary(entries, tableKeys: tableKeys, format: fileFormat, into: &sink))
      }
      return CollectionLeafEncoder.collectionRefs(refs, into: &sink)
    }
  }

  private func collection(_ elements: [RealmValue], _ p: Property, nullable: Bool) throws(FormatError) -> Ref {
    if p.type == .object {
      var keys = [Int64]()
      keys.reserveCapacity(elements.count)
      for case .int(let k) in elements { keys.append(k) }
      return CollectionLeafEncoder.linkCollection(keys, into: &sink)
    }
    return try CollectionLeafEncoder.primitiveCollection(
      elements, type: p.type, nullable: nullable, tableKeys: tableKeys, format: fileFormat, into: &sink)
  }
}
