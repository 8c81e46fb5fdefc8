import RealmModel
/// Completing the file: backlink columns, cluster leaves and trees, search indexes, table
/// tops, and the group.
extension RealmFileBuilder {
  /// Writes everything still pending and the group, and returns the header and file size.
  /// The builder accepts no objects afterwards.
  public func finish() throws(FormatError) -> GroupWriter.FinishedFile {
    guard !finished else { throw FormatError.corrupt("the file is already finished") }
    if let failedObject { throw FormatError.corrupt("the file cannot be finished after the error in \(failedObject)") }
    if !heldObjects.isEmpty { try appendHeldObjects() }
    finished = true
    for t in states.indices {
      while !states[t].pendingKeys.isEmpty {
        try flushCluster(table: t, count: min(states[t].pendingKeys.count, ClusterTreeWriter.fanOut))
      }
      if states[t].clusters.isEmpty { try flushCluster(table: t, count: 0) }
    }
    var tableRefs = [Ref]()
    for t in tables.indices { tableRefs.append(try writeTable(t)) }
    return GroupWriter.finish(tableNames: tables.map(\.name), tableRefs: tableRefs, fileFormat: fileFormat, into: &sink)
  }

  private func writeTable(_ t: Int) throws(FormatError) -> Ref {
    let plan = tables[t]
    // Backlinks come sorted by target (stable: origins stay in the order links were seen).
    var links = backlinkPairs[t].indices.map { b -> PairMerge in
      backlinkPairs[t][b].sortPending()
      return backlinkPairs[t][b].merged()
    }
    var leaves = [ClusterTreeWriter.Leaf]()
    leaves.reserveCapacity(states[t].clusters.count)
    var origins = [Int64]()
    var slots = [Int64]()
    for cluster in states[t].clusters {
      let keys = states[t].keys.keys(cluster.keyStart..<(cluster.keyStart + cluster.count))
      var columns = cluster.columns
      for b in links.indices {
        slots.removeAll(keepingCapacity: true)
        for k in keys {
          origins.removeAll(keepingCapacity: true)
          while let p = links[b].peek, Int64(bitPattern: p.first) <= k {
            guard Int64(bitPattern: p.first) == k else { throw missingTarget(t, Int64(bitPattern: p.first)) }
            origins.append(Int64(bitPattern: p.second))
            links[b].advance()
          }
          slots.append(CollectionLeafEncoder.backlinkSlot(origins, format: fileFormat, into: &sink))
        }
        columns.append(sink.append(NodeEncoder.refArray(slots)))
      }
      let offset = states[t].clusters.count == 1 ? 0 : keys.first ?? 0
      leaves.append(ClusterTreeWriter.leaf(keys: keys[...], offset: offset, columns: columns, into: &sink))
    }
    for b in links.indices {
      if let p = links[b].peek { throw missingTarget(t, Int64(bitPattern: p.first)) }
    }
    let root = ClusterTreeWriter.root(leaves: leaves, into: &sink)
    var indexes = [Ref](repeating: .null, count: plan.columns.count + plan.backlinks.count)
    // In column order: a dictionary's order changes from run to run, and the same input must
    // give the same file.
    for c in states[t].indexEntries.indices {
      guard let collected = states[t].indexEntries[c] else { continue }
      guard let entries = collected.general else {
        var runs = collected.ints
        runs.sortPending()
        switch SearchIndexWriter.writeInts(runs, stopAtDuplicate: c == plan.primaryKey, into: &sink) {
        case .written(let ref): indexes[c] = ref
        case .duplicate(let a, let b): throw duplicatePrimaryKey(t, c, a, b)
        }
        continue
      }
      let order = SearchIndexWriter.sortedOrder(entries, format: fileFormat)
      // Realm refuses a second object with an existing primary key value.
      if c == plan.primaryKey, let (a, b) = SearchIndexWriter.firstDuplicate(entries, order: order) {
        throw duplicatePrimaryKey(t, c, entries.keys[a], entries.keys[b])
      }
      indexes[c] = SearchIndexWriter.write(entries, order: order, into: &sink)
    }
    for c in states[t].fullTextEntries.indices {
      guard let words = states[t].fullTextEntries[c] else { continue }
      indexes[c] = FullTextIndexWriter.write(words, into: &sink)
    }
    return TableTopWriter.top(plan, clusterRoot: root, indexes: indexes, sequence: states[t].sequence, into: &sink)
  }

  private func duplicatePrimaryKey(_ t: Int, _ c: Int, _ a: Int64, _ b: Int64) -> FormatError {
    FormatError.corrupt(
      "objects \(min(a, b)) and \(max(a, b)) of class '\(className(t))' have the same primary key value ('\(tables[t].columns[c].name ?? "?")')")
  }

  /// Format 20: gives the held objects of classes with a primary key the keys Realm Core 10
  /// derives from it (§4.9), rewrites the links to them, and appends every held object in key
  /// order.
  private func appendHeldObjects() throws(FormatError) {
    var newKeys: [Int: [Int64: Int64]] = [:]
    for o in heldObjects {
      guard let pk = tables[o.table].primaryKey else { continue }
      guard let derived = PrimaryKeyObjectKey.key(for: o.values[pk]) else {
        throw FormatError.corrupt("object \(o.key) of class '\(className(o.table))' has a primary key of the wrong type")
      }
      newKeys[o.table, default: [:]][o.key] = derived
    }
    var seen: [Int: [Int64: Int64]] = [:]
    for o in heldObjects where tables[o.table].primaryKey != nil {
      let derived = newKeys[o.table]![o.key]!
      if let other = seen[o.table, default: [:]][derived] {
        // Core 10 would give the second one a key from its collision map.
        throw FormatError.corrupt(
          "objects \(other) and \(o.key) of class '\(className(o.table))' have primary keys with the same format-20 object key \(derived), which is not written")
      }
      seen[o.table, default: [:]][derived] = o.key
    }
    let pkTables = Dictionary(uniqueKeysWithValues: newKeys.keys.map { (className($0), $0) })
    func remap(_ v: RealmValue) -> RealmValue {
      switch v {
      case .link(var l):
        if let t = pkTables[l.className], let k = newKeys[t]?[l.key] { l.key = k }
        return .link(l)
      case .list(let e): return .list(e.map(remap))
      case .set(let e): return .set(e.map(remap))
      case .dictionary(let entries): return .dictionary(entries.map { DictionaryEntry($0.key, remap($0.value)) })
      case .embedded(var e):
        for i in e.properties.indices { e.properties[i].value = remap(e.properties[i].value) }
        return .embedded(e)
      default: return v
      }
    }
    var objects = heldObjects
    heldObjects = []
    for i in objects.indices {
      if let k = newKeys[objects[i].table]?[objects[i].key] { objects[i].key = k }
      objects[i].values = objects[i].values.map(remap)
    }
    objects.sort { ($0.table, $0.key) < ($1.table, $1.key) }
    for t in Set(objects.map(\.table)) {
      states[t].lastKey = nil
      states[t].sequence = 0
    }
    for o in objects {
      let key = try nextKey(table: o.table, requested: o.key)
      do throws(FormatError) {
        try appendRow(table: o.table, key: key, values: o.values)
        try flushFullClusters()
      } catch {
        failedObject = "object \(key) of class '\(className(o.table))'"
        throw error
      }
    }
  }

  private func missingTarget(_ t: Int, _ key: Int64) -> FormatError {
    FormatError.corrupt("a link points to object \(key) of class '\(className(t))', which does not exist")
  }
}

extension RealmFileBuilder where Sink == BufferNodeSink {
  /// Builds a whole file in memory: `objects` gives, per class name, the objects in
  /// ascending key order (see ``append(className:key:values:)``).
  public static func build(
    schema: Schema, objects: [(className: String, key: Int64?, values: [RealmValue])],
    fileFormat: WritableFileFormat = .current
  ) throws(FormatError) -> [UInt8] {
    let builder = try RealmFileBuilder(schema: schema, fileFormat: fileFormat, sink: BufferNodeSink())
    for o in objects { try builder.append(className: o.className, key: o.key, values: o.values) }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    return builder.sink.bytes
  }
}
