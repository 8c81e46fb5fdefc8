import RealmModel

extension ClusterAppender {
  /// An append fed one object at a time: each full cluster of new objects is encoded as soon
  /// as it is complete, so memory holds one cluster's values, not all the new objects'. The
  /// new entries of indexed columns are kept as sorted runs (ints) or entries (other values)
  /// until ``finish(sequence:sink:)``, which writes the indexes, the inner
  /// nodes and the table top.
  public struct Stream {
    let table: Table
    let group: Group
    let format: WritableFileFormat
    let columns: [Column]
    let slotCount: Int
    let backlinkLeaves: [Int]
    /// The public columns that can hold links (links, mixed, collections).
    let linking: [Int]
    /// The public columns with a search index, and their new entries.
    let indexed: [Int]
    /// Per indexed column: the type its values are coerced to for the index, worked out once
    /// (nil: ``ClusterAppender/storedValue(_:_:table:)`` decides per value).
    let indexedTypes: [PropertyType?]
    var entries: [IndexEntryCollector]
    /// The public columns with a full-text index, and the words of the new objects.
    let fullTextIndexed: [Int]
    var words: [FullTextIndexEntries]
    var result = Result(tableTop: .null)
    /// The existing non-empty leaves, then the new ones.
    var leaves: [ClusterTreeWriter.Leaf]
    /// Whether the table had leaves (an empty table's root leaf is freed).
    let emptyLeaves: [Ref]
    /// The number of existing (non-empty) leaves at the start of ``leaves``.
    let existingLeafCount: Int
    /// Existing leaves replaced by ``change(leaf:rows:columns:values:unchanged:sink:)``.
    var changedLeaves = 0
    /// The keys and values of the cluster being filled.
    var keys: [Int64] = []
    var values: [[RealmValue]] = []
    /// The largest key of the table so far.
    var lastKey: Int64?
    /// Objects appended.
    public private(set) var count = 0

    /// Starts an append to `table` (refused when ``unsupportedReason(table:group:)`` gives a reason).
    public init(table: Table, group: Group, scratch: any ScratchStorage = MemoryScratchStorage()) throws {
      if let reason = ClusterAppender.unsupportedReason(table: table, group: group) {
        throw FormatError.corrupt("cannot append to '\(table.name)' in place: \(reason)")
      }
      self.table = table
      self.group = group
      format = WritableFileFormat(keeping: group.fileFormat) ?? .current
      var tree = ExistingTree(reader: group.reader, shift: group.clusterShift)
      try tree.walk(table.clusterRoot, offset: 0, depth: 0)
      result.replaced = tree.inner
      leaves = tree.leaves.filter { $0.count > 0 }
      emptyLeaves = tree.leaves.filter { $0.count == 0 }.map(\.ref)
      existingLeafCount = leaves.count
      if let last = leaves.last { lastKey = try ClusterAppender.lastKey(of: last, reader: group.reader) }
      let publicColumns = table.publicColumns
      let indexedColumns = publicColumns.indices.filter {
        publicColumns[$0].hasSearchIndex && !publicColumns[$0].attributes.contains(.fullTextIndexed)
      }
      fullTextIndexed = publicColumns.indices.filter {
        publicColumns[$0].hasSearchIndex && publicColumns[$0].attributes.contains(.fullTextIndexed)
      }
      words = fullTextIndexed.map { _ in FullTextIndexEntries(scratch: scratch) }
      columns = publicColumns
      slotCount = (table.columns.map(\.leafIndex).max() ?? -1) + 1
      backlinkLeaves = table.columns.filter(\.isBacklink).map(\.leafIndex)
      indexed = indexedColumns
      indexedTypes = indexedColumns.map { c in
        let column = publicColumns[c]
        guard column.type != .mixed, !column.isLink else { return nil }
        return try? ComputedColumn.propertyType(column.type, table: table.name)
      }
      linking = ClusterAppender.linkingColumns(publicColumns)
      entries = indexedColumns.map { _ in IndexEntryCollector(scratch: scratch, keysAscend: true) }
      keys.reserveCapacity(ClusterTreeWriter.fanOut)
      values.reserveCapacity(ClusterTreeWriter.fanOut)
    }

    /// Why the object with `values` (by public column) cannot be appended (it links to
    /// another object), or nil.
    public func unsupportedReason(_ values: [RealmValue]) -> String? {
      ClusterAppender.unsupportedReason(values, columns: columns, linking: linking)
    }

    /// The largest key of the table and the objects appended so far (nil: none).
    public var largestKey: Int64? { lastKey }

    /// Appends an object: `key` above every key so far, `values` by public column, linking
    /// nowhere (``ClusterAppender/unsupportedReason(table:group:)``).
    public mutating func append<S: NodeSink>(key: Int64, values objectValues: [RealmValue], sink: inout S) throws {
      if let lastKey, key <= lastKey {
        throw FormatError.corrupt("cannot append to '\(table.name)' in place: key \(key) is not above the last key \(lastKey)")
      }
      guard objectValues.count == columns.count else {
        throw FormatError.corrupt("an object has \(objectValues.count) values for \(columns.count) columns")
      }
      // A full cluster is written when the next object comes: the last one decides whether
      // a single leaf is the root (offset 0).
      if keys.count == ClusterTreeWriter.fanOut { try flush(single: false, sink: &sink) }
      for (i, c) in indexed.enumerated() {
        let v = objectValues[c]
        let stored: RealmValue
        if let type = indexedTypes[i], !v.isNull {
          stored = try TypedLeafEncoder.coerced(v, to: type)
        } else {
          stored = try storedValue(v, columns[c], table: table.name)
        }
        try entries[i].append(stored, key: key, tableKeys: [:])
      }
      for (i, c) in fullTextIndexed.enumerated() { words[i].append(objectValues[c], key: key) }
      keys.append(key)
      values.append(objectValues)
      lastKey = key
      count += 1
    }

    /// Encodes the pending objects as one new leaf.
    private mutating func flush<S: NodeSink>(single: Bool, sink: inout S) throws {
      guard !keys.isEmpty else { return }
      var slots = [Ref](repeating: .null, count: slotCount)
      for (c, column) in columns.enumerated() {
        let columnValues = values.map { $0[c] }
        slots[column.leafIndex] = try leaf(column, columnValues, table: table.name, format: format, sink: &sink)
      }
      for b in backlinkLeaves {
        slots[b] = CollectionLeafEncoder.backlinks([[Int64]](repeating: [], count: keys.count), format: format, into: &sink)
      }
      leaves.append(ClusterTreeWriter.leaf(keys: keys[...], offset: single ? 0 : keys[0], columns: slots, into: &sink))
      keys.removeAll(keepingCapacity: true)
      values.removeAll(keepingCapacity: true)
    }

    /// Writes the last leaf, the inner nodes, the search indexes (the new entries merged into
    /// the existing int indexes; other indexes rebuilt from the column and the new values)
    /// and the table top with key sequence `sequence` (kept when nothing was appended).
    public mutating func finish<S: NodeSink>(
      sequence: Int64, sink: inout S
    ) throws -> Result {
      try flush(single: leaves.isEmpty, sink: &sink)
      let reader = group.reader
      let root: Ref
      if count == 0 && changedLeaves == 0 {
        // Nothing to add or change: the table keeps its tree.
        root = table.clusterRoot
        result.replaced.removeAll()
      } else {
        result.freedDeep += emptyLeaves
        root = ClusterTreeWriter.root(leaves: leaves, into: &sink)
      }
      let topNode = try ArrayNode(reader, table.ref)
      var top = try MetadataEditor.elements(of: topNode)
      guard top.count >= 10 else { throw FormatError.corrupt("table '\(table.name)' has a short top array") }
      if !(indexed.isEmpty && fullTextIndexed.isEmpty) && count > 0 {
        let indexArray = try ArrayNode(reader, try MetadataEditor.refAt(top, 4))
        var indexSlots = try MetadataEditor.elements(of: indexArray)
        for (i, c) in indexed.enumerated() {
          let column = columns[c]
          guard column.leafIndex < indexSlots.count else { throw FormatError.corrupt("table '\(table.name)' has a short index array") }
          indexSlots[column.leafIndex] = Int64(try index(i, sink: &sink).rawValue)
        }
        for (i, c) in fullTextIndexed.enumerated() {
          let column = columns[c]
          guard column.leafIndex < indexSlots.count else { throw FormatError.corrupt("table '\(table.name)' has a short index array") }
          indexSlots[column.leafIndex] = Int64(try fullTextIndex(i, sink: &sink).rawValue)
        }
        result.replaced.append(indexArray.ref)
        top[4] = Int64(sink.append(NodeEncoder.refArray(indexSlots)).rawValue)
      }
      top[2] = Int64(root.rawValue)
      if count > 0 {
        let oldSequence = top[9] & 1 == 1 ? top[9] >> 1 : 0
        top[9] = RefOrTagged.taggedRaw(UInt64(max(oldSequence, sequence)))
      }
      result.replaced.append(table.ref)
      result.tableTop = sink.append(NodeEncoder.refArray(top, contextFlag: topNode.header.contextFlag))
      return result
    }

    /// The new full-text index of full-text indexed column number `i`: the words of every
    /// existing value, then the new objects' words (whose keys are above).
    private mutating func fullTextIndex<S: NodeSink>(_ i: Int, sink: inout S) throws -> Ref {
      let p = fullTextIndexed[i]
      var all = FullTextIndexEntries(scratch: words[i].pairs.scratch)
      try group.forEachObject(in: table, columns: [p]) { key, values in all.append(values[p], key: key) }
      all.append(contentsOf: words[i])
      result.freedDeep.append(columns[p].searchIndexRef)
      return FullTextIndexWriter.write(all, into: &sink)
    }

    /// The new index of indexed column number `i`: the existing one extended when it holds
    /// non-null ints and the new values fit beside its entries, else rebuilt from every value.
    private mutating func index<S: NodeSink>(
      _ i: Int, sink: inout S
    ) throws -> Ref {
      let column = columns[indexed[i]]
      let unique = column.key == table.primaryKey
      var runs = entries[i].ints
      runs.sortPending()
      if entries[i].general == nil, column.type == .int, !column.isNullable {
        let extension_ = try SearchIndexWriter.extendInts(
          root: column.searchIndexRef, with: runs, unique: unique, reader: group.reader, limits: group.limits, into: &sink)
        switch extension_ {
        case .written(let root, let replaced):
          result.replaced += replaced
          return root
        case .needsRebuild(let written):
          result.replaced += written  // nodes of this write that nothing refers to
        }
      }
      // The rebuild: the new entries and every existing value.
      var all = entries[i].general ?? SearchIndexEntries()
      if entries[i].general == nil {
        var merge = runs.merged()
        while let p = merge.next() { try all.append(.int(SearchIndexWriter.intValue(p)), key: Int64(bitPattern: p.second)) }
      }
      let p = indexed[i]
      try group.forEachObject(in: table, columns: [p]) { key, values in try all.append(values[p], key: key) }
      let order = SearchIndexWriter.sortedOrder(all, format: format)
      if unique, let (a, b) = SearchIndexWriter.firstDuplicate(all, order: order) {
        let keys = all.keys
        throw FormatError.corrupt(
          "objects \(min(keys[a], keys[b])) and \(max(keys[a], keys[b])) of '\(table.name)' have the same primary key value")
      }
      result.freedDeep.append(column.searchIndexRef)
      return SearchIndexWriter.write(all, order: order, into: &sink)
    }
  }
}
