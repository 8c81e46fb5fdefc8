import RealmModel
/// Adds and removes columns of tables copy-on-write, leaving every other column's data where
/// it is: the cost grows with the number of clusters, not with the data.
///
/// Per edited table it writes a new spec (§4.2), new per-leaf arrays (table slots 4, 7, 8), a
/// new table top (§4.1) and a new copy of every cluster-tree node (§5): leaves get the added
/// columns' constant leaves and lose the removed columns' slots (§4.3: a hole is 0, trailing
/// holes are truncated). Column renames of the same tables are applied to the new names array.
/// The caller places the new nodes (``NodeSink``), frees `replaced` shallowly and `freedDeep`
/// deeply, and writes `tableTops` into the tables array (``MetadataEditor`` does that).
public enum ColumnEditor {
  /// A column to add: the property and the one value every existing object gets, or values
  /// computed per object by the edit's ``TableEdit/values`` source.
  public struct NewColumn: Sendable, Equatable {
    /// The property (not a link, not a primary key; indexed only when computed).
    public var property: Property
    /// The value of every object: a scalar of the property's type or null, or an empty
    /// collection for a list, set or dictionary. Unused when ``isComputed``.
    public var value: RealmValue
    /// True when the values come from the edit's ``TableEdit/values`` source, object by object.
    public var isComputed: Bool
    /// Creates a column to add with one value for every object.
    public init(property: Property, value: RealmValue) {
      self.property = property
      self.value = value
      self.isComputed = false
    }
    /// Creates a column to add whose values the edit's ``TableEdit/values`` source computes.
    public init(computed property: Property) {
      self.property = property
      self.value = .null
      self.isComputed = true
    }
  }

  /// What changes in one table.
  public struct TableEdit: Sendable, Equatable {
    /// Names of public columns to remove (before any rename).
    public var removed: [String] = []
    /// Columns appended after the remaining public columns, in this order (or placed by
    /// ``order``).
    public var added: [NewColumn] = []
    /// Old column name -> new column name (columns that stay).
    public var renamed: [String: String] = [:]
    /// Existing columns (named as before any rename) that keep their key and get new values
    /// from ``values``; their search index, if any, is rebuilt.
    public var recomputed: [String] = []
    /// The public columns in their final spec order (names after renames); nil keeps the
    /// remaining columns in their order and appends the added ones.
    public var order: [String]?
    /// The source of the values of ``recomputed`` columns and computed ``added`` columns, in
    /// that order (see ``ColumnValueSource``); required when there are any.
    public var values: (any ColumnValueSource)?
    /// Creates an empty edit.
    public init() {}

    /// The columns whose values ``values`` computes: ``recomputed`` then computed ``added``.
    public var computedCount: Int { recomputed.count + added.filter(\.isComputed).count }

    public static func == (a: TableEdit, b: TableEdit) -> Bool {
      a.removed == b.removed && a.added == b.added && a.renamed == b.renamed && a.recomputed == b.recomputed
        && a.order == b.order && a.values === b.values
    }
  }

  /// The new table tops and the nodes that were replaced.
  public struct Result: Sendable {
    /// Table slot (position in the group's tables array) -> new table top ref.
    public var tableTops: [Int: Ref] = [:]
    /// Old nodes no longer reachable (free each one shallowly).
    public var replaced: [Ref] = []
    /// Old subtrees no longer reachable (free each one deeply): removed columns' leaves and
    /// search indexes.
    public var freedDeep: [Ref] = []
  }

  /// Why ``apply(_:to:sink:buildingFullTextIndexes:)`` cannot make `edits` in place, or nil when it can.
  ///
  /// Checked before anything is written so that the caller can fall back to a rewrite.
  public static func unsupportedReason(_ edits: [String: TableEdit], in group: Group) -> String? {
    // The new leaves are written in the file's own format, which must be one realmctl writes.
    guard let format = WritableFileFormat(keeping: group.fileFormat), format.rawValue == group.fileFormat else {
      return "file format \(group.fileFormat) is not written in place"
    }
    for (name, edit) in edits {
      guard let table = group.table(named: name) else { return "there is no table '\(name)'" }
      if table.tombstoneCount > 0 { return "table '\(name)' has tombstones" }
      for removed in edit.removed {
        guard let c = table.column(named: removed) else { return "table '\(name)' has no column '\(removed)'" }
        if c.isLink { return "column '\(removed)' is a link" }
        if c.key == table.primaryKey { return "column '\(removed)' is the primary key" }
      }
      for old in edit.renamed.keys where table.column(named: old) == nil {
        return "table '\(name)' has no column '\(old)'"
      }
      for r in edit.recomputed {
        guard let c = table.column(named: r), !c.isBacklink else { return "table '\(name)' has no column '\(r)'" }
        if c.isLink || c.type == .mixed { return "column '\(r)' is a link or mixed" }
        if c.key == table.primaryKey { return "column '\(r)' is the primary key" }
        if c.attributes.contains(.list) || c.attributes.contains(.set) || c.attributes.contains(.dictionary) {
          return "column '\(r)' is a collection"
        }
      }
      if edit.computedCount > 0 && edit.values == nil { return "table '\(name)' has computed columns but no values" }
      if table.columns.contains(where: { !$0.enumValuesRef.isNull }) { return "table '\(name)' has an enumerated string column" }
      for a in edit.added {
        let p = a.property
        if a.isComputed {
          if p.type == .object || p.type == .mixed || p.collection != .single {
            return "computed column '\(p.name)' is a link, mixed or a collection"
          }
        } else if p.type == .object || p.isIndexed || p.isFullTextIndexed {
          return "column '\(p.name)' is a link or indexed"
        }
        if p.isFullTextIndexed && (p.type != .string || p.collection != .single) {
          return "column '\(p.name)' of type '\(p.type.rawValue)' cannot have a full-text index"
        }
        if p.name.isEmpty || p.name.utf8.count > 63 { return "column name '\(p.name)' must have 1 to 63 bytes" }
        if let reason = TablePlan.unsupportedReason(p, format: format) { return "column '\(p.name)' \(reason)" }
        if p.collection != .single && !isEmptyCollection(a.value) { return "column '\(p.name)' starts with a non-empty collection" }
        if p.type == .mixed && p.collection == .single && !isPlainScalar(a.value) {
          return "column '\(p.name)' starts with a composite mixed value"
        }
      }
    }
    return nil
  }

  /// Writes the new nodes of every edited table into `sink`.
  ///
  /// Tables are edited in byte order of their names; computed values are asked for cluster by
  /// cluster in key order. Errors of the value sources pass through unchanged.
  ///
  /// `buildingFullTextIndexes` false is for a check before the real run (into a sink that only
  /// counts): the full-text indexes of computed columns are then not built, since nothing in
  /// building one can fail on values that encode.
  public static func apply<S: NodeSink>(
    _ edits: [String: TableEdit], to group: Group, sink: inout S, buildingFullTextIndexes: Bool = true
  ) throws -> Result {
    if let reason = unsupportedReason(edits, in: group) { throw FormatError.corrupt("cannot change columns in place: \(reason)") }
    var result = Result()
    for name in edits.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      guard let table = group.table(named: name), let edit = edits[name] else { continue }
      let top = try editTable(
        table, edit, group: group, sink: &sink, result: &result, buildingFullTextIndexes: buildingFullTextIndexes)
      result.tableTops[table.slot] = top
    }
    return result
  }

  /// One column of the edited table: its spec entries and per-leaf-index entries.
  struct ColumnEntry {
    var name: String?
    var specType: Int64
    var attributes: Int64
    var key: ColKey
    var searchIndex: Ref
    var oppositeTable: Int64
    var oppositeColumn: Int64
    var isBacklink: Bool { name == nil }
  }

  private static func editTable<S: NodeSink>(
    _ table: Table, _ edit: TableEdit, group: Group, sink: inout S, result: inout Result, buildingFullTextIndexes: Bool
  ) throws -> Ref {
    let reader = group.reader
    let topNode = try ArrayNode(reader, table.ref)
    var slots = try MetadataEditor.elements(of: topNode)
    guard slots.count >= 12 else { throw FormatError.corrupt("table '\(table.name)' has a short top array") }
    let specNode = try ArrayNode(reader, try MetadataEditor.refAt(slots, 0))
    let spec = try MetadataEditor.elements(of: specNode)
    guard spec.count >= 6 else { throw FormatError.corrupt("the spec of '\(table.name)' has \(spec.count) slots") }
    let types = try ArrayNode(reader, try MetadataEditor.refAt(spec, 0))

    // Current columns in spec order, with their per-leaf entries (§4.2, §4.3).
    var entries: [ColumnEntry] = []
    for c in table.columns {
      let rawType = try types.get(c.specIndex)
      entries.append(
        ColumnEntry(
          name: c.isBacklink ? nil : (edit.renamed[c.name] ?? c.name), specType: rawType,
          attributes: Int64(c.attributes.rawValue), key: c.key, searchIndex: c.searchIndexRef,
          oppositeTable: c.oppositeTableKey ?? FormatConstants.nullTableKey,
          oppositeColumn: (c.oppositeColumnKey ?? .null).rawValue))
    }
    var removedLeaves: [Int] = []
    for name in edit.removed {
      guard let i = table.columns.firstIndex(where: { !$0.isBacklink && $0.name == name }),
        let e = entries.firstIndex(where: { $0.key == table.columns[i].key })
      else { throw FormatError.corrupt("table '\(table.name)' has no column '\(name)'") }
      removedLeaves.append(entries[e].key.leafIndex)
      if !entries[e].searchIndex.isNull { result.freedDeep.append(entries[e].searchIndex) }
      entries.remove(at: e)
    }

    // Recomputed columns keep their key; their values (and search index) are replaced.
    var computed: [ComputedColumn] = []
    for name in edit.recomputed {
      guard let column = table.columns.first(where: { !$0.isBacklink && $0.name == name }),
        let e = entries.firstIndex(where: { $0.key == column.key })
      else { throw FormatError.corrupt("table '\(table.name)' has no column '\(name)'") }
      let hasIndex = !entries[e].searchIndex.isNull
      if hasIndex { result.freedDeep.append(entries[e].searchIndex) }
      let fullText = hasIndex && column.attributes.contains(.fullTextIndexed)
      var recomputed = ComputedColumn(
        leaf: entries[e].key.leafIndex, type: try ComputedColumn.propertyType(column.type, table: table.name),
        nullable: column.attributes.contains(.nullable), indexed: hasIndex && !fullText, replacesLeaf: true, name: name)
      recomputed.fullText = fullText
      computed.append(recomputed)
    }

    // §4.4: every removal increments the column-key sequence; new keys are tagged with
    // sequence XOR table key and take the lowest free leaf index.
    let oldSequence = (slots[5] & 1 == 1) ? Int(truncatingIfNeeded: UInt64(bitPattern: slots[5]) >> 1) : 0
    let sequence = try checkedAdd(oldSequence, removedLeaves.count)
    guard sequence < 1 << 62 else { throw FormatError.corrupt("table '\(table.name)' has column-key sequence \(oldSequence)") }
    slots[5] = RefOrTagged.taggedRaw(UInt64(sequence))
    let tag = UInt32(truncatingIfNeeded: Int64(sequence) ^ table.key)
    let keptSlotCount = (entries.map(\.key.leafIndex).max() ?? -1) + 1
    var addedLeaves: [(leaf: Int, column: NewColumn)] = []
    let firstBacklink = entries.firstIndex(where: \.isBacklink) ?? entries.count
    var insertAt = firstBacklink
    for a in edit.added {
      let used = Set(entries.map(\.key.leafIndex))
      var leaf = 0
      while used.contains(leaf) { leaf += 1 }
      guard leaf <= 0xFFFF else { throw FormatError.corrupt("table '\(table.name)' has too many columns") }
      let type = TablePlan.columnType(a.property.type)
      var attributes = attributes(of: a.property)
      if a.isComputed && a.property.isIndexed { attributes.insert(.indexed) }
      if a.isComputed && a.property.isFullTextIndexed { attributes.insert(.fullTextIndexed) }
      let key = ColKey(leafIndex: leaf, type: type, attributes: attributes, tag: tag)
      let specType = Int64(type.rawValue) | (a.property.collection == .dictionary ? Int64(2) << 16 : 0)
      entries.insert(
        ColumnEntry(
          name: a.property.name, specType: specType, attributes: Int64(attributes.rawValue), key: key, searchIndex: .null,
          oppositeTable: FormatConstants.nullTableKey, oppositeColumn: ColKey.null.rawValue),
        at: insertAt)
      insertAt += 1
      if a.isComputed {
        var added = ComputedColumn(
          leaf: leaf, type: a.property.type, nullable: attributes.contains(.nullable), indexed: a.property.isIndexed,
          replacesLeaf: false, name: a.property.name)
        added.fullText = a.property.isFullTextIndexed
        computed.append(added)
      } else {
        addedLeaves.append((leaf, a))
      }
    }
    if let order = edit.order {
      entries = try reordered(entries, order, table: table.name)
    }
    let names = entries.compactMap(\.name)
    guard Set(names).count == names.count else { throw FormatError.corrupt("table '\(table.name)' would have two columns of the same name") }
    let leafCount = (entries.map(\.key.leafIndex).max() ?? -1) + 1

    // Spec (§4.2): types, names, attributes, slots 3 and 4 kept, column keys.
    var newSpec = spec
    newSpec[0] = Int64(sink.append(NodeEncoder.integers(entries.map(\.specType))).rawValue)
    newSpec[1] = Int64(sink.append(StringLeafEncoder.shortStringNode(names.map { Array($0.utf8) })).rawValue)
    newSpec[2] = Int64(sink.append(NodeEncoder.integers(entries.map(\.attributes))).rawValue)
    newSpec[5] = Int64(sink.append(NodeEncoder.integers(entries.map(\.key.rawValue))).rawValue)
    for s in [0, 1, 2, 5] { result.replaced.append(try MetadataEditor.refAt(spec, s)) }
    result.replaced.append(specNode.ref)
    slots[0] = Int64(sink.append(NodeEncoder.refArray(newSpec)).rawValue)

    // The cluster tree (§5).
    var walker = ClusterRewriter(
      reader: reader, removedLeaves: removedLeaves, added: addedLeaves, leafCount: leafCount,
      keptSlotCount: keptSlotCount, tableName: table.name,
      format: WritableFileFormat(keeping: group.fileFormat) ?? .current)
    if !computed.isEmpty {
      guard let source = edit.values else { throw FormatError.corrupt("table '\(table.name)' has computed columns but no values") }
      walker.computation = try ClusterComputation(group: group, table: table, columns: computed, source: source)
      walker.computation?.buildsFullTextIndexes = buildingFullTextIndexes
    }
    slots[2] = Int64(try walker.rewrite(table.clusterRoot, depth: 0, offset: 0, sink: &sink).rawValue)
    try table.requireObjectCount(walker.objects)
    result.replaced += walker.replaced
    result.freedDeep += walker.freedDeep
    // Search indexes of computed columns, built whole from their values (§4.6).
    var newIndexes: [Int: Ref] = [:]
    if let computation = walker.computation {
      for (c, column) in computed.enumerated() {
        if column.indexed {
          newIndexes[column.leaf] = SearchIndexWriter.write(computation.indexEntries[c], format: walker.format, into: &sink)
        } else if column.fullText && computation.buildsFullTextIndexes {
          newIndexes[column.leaf] = FullTextIndexWriter.write(computation.fullTextEntries[c], into: &sink)
        }
      }
    }

    // Per-leaf-index arrays (slots 4, 7, 8): holes get 0 / null table key / null ColKey.
    var indexes = [Int64](repeating: 0, count: leafCount)
    var oppositeTables = [Int64](repeating: FormatConstants.nullTableKey, count: leafCount)
    var oppositeColumns = [Int64](repeating: ColKey.null.rawValue, count: leafCount)
    for e in entries {
      indexes[e.key.leafIndex] = Int64((newIndexes[e.key.leafIndex] ?? e.searchIndex).rawValue)
      oppositeTables[e.key.leafIndex] = e.oppositeTable
      oppositeColumns[e.key.leafIndex] = e.oppositeColumn
    }
    for s in [4, 7, 8] where slots[s] != 0 { result.replaced.append(try MetadataEditor.refAt(slots, s)) }
    slots[4] = Int64(sink.append(NodeEncoder.refArray(indexes)).rawValue)
    slots[7] = Int64(sink.append(NodeEncoder.integers(oppositeTables)).rawValue)
    slots[8] = Int64(sink.append(NodeEncoder.integers(oppositeColumns)).rawValue)
    result.replaced.append(table.ref)
    return sink.append(NodeEncoder.refArray(slots))
  }

  /// The public entries in the order of `names` (after renames), backlinks after them.
  static func reordered(_ entries: [ColumnEntry], _ names: [String], table: String) throws(FormatError) -> [ColumnEntry] {
    let publicEntries = entries.filter { !$0.isBacklink }
    guard names.count == publicEntries.count else {
      throw FormatError.corrupt("table '\(table)' would have \(publicEntries.count) columns, the order names \(names.count)")
    }
    var out: [ColumnEntry] = []
    out.reserveCapacity(entries.count)
    for n in names {
      guard let e = publicEntries.first(where: { $0.name == n }) else {
        throw FormatError.corrupt("table '\(table)' has no column '\(n)' to order")
      }
      out.append(e)
    }
    return out + entries.filter(\.isBacklink)
  }

  /// The spec attributes of a new column (§4.5 rules of `Table::add_column`).
  static func attributes(of p: Property) -> ColumnAttributes {
    var a: ColumnAttributes = []
    if p.isOptional || p.type == .mixed { a.insert(.nullable) }
    switch p.collection {
    case .single: break
    case .list: a.insert(.list)
    case .set: a.insert(.set)
    case .dictionary: a.insert(.dictionary)
    }
    return a
  }

  /// True for null and for an empty list, set or dictionary: what a new collection column holds.
  public static func isEmptyCollection(_ v: RealmValue) -> Bool {
    switch v {
    case .null: return true
    case .list(let e), .set(let e): return e.isEmpty
    case .dictionary(let e): return e.isEmpty
    default: return false
    }
  }

  static func isPlainScalar(_ v: RealmValue) -> Bool {
    switch v {
    case .link, .embedded, .list, .set, .dictionary: return false
    default: return true
    }
  }
}
