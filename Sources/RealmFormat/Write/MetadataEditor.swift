/// Rewrites the metadata of a file copy-on-write: table (class) names, column (property)
/// names and the Object Store schema version, leaving every data node where it is.
///
/// This is what makes renames cost a few kilobytes whatever the file size: only the names
/// arrays, the specs, the table top arrays, the `metadata` table's leaf and the tables array
/// on the path to them are written again (§4.1, §4.2, §3.1, §7.1). The caller places the new
/// nodes (``NodeSink``), frees the replaced ones (`replaced` lists them, each a single node)
/// and commits with the returned table-names and tables refs.
public enum MetadataEditor {
  /// What to change.
  public struct Edits: Sendable, Equatable {
    /// Table name -> new table name (full names, e.g. `class_Person`).
    public var tableRenames: [String: String] = [:]
    /// Table name (before any table rename) -> column name -> new column name.
    public var columnRenames: [String: [String: String]] = [:]
    /// The new schema version for the `metadata` table, if it changes.
    public var schemaVersion: Int64?
    /// Creates an empty set of edits.
    public init() {}
    /// True when nothing changes.
    public var isEmpty: Bool { tableRenames.isEmpty && columnRenames.isEmpty && schemaVersion == nil }
  }

  /// The new group slots and the nodes that were replaced.
  public struct Result: Sendable {
    /// New slot 0 of the group top array.
    public var tableNames: Ref
    /// New slot 1 of the group top array.
    public var tables: Ref
    /// Nodes of the old version no longer reachable (free each one, shallowly).
    public var replaced: [Ref]
  }

  /// True when ``apply(_:to:tableTops:sink:)`` can make these edits in place (a `metadata` table with one
  /// object in a single leaf when the version changes).
  public static func canApply(_ edits: Edits, to group: Group) -> Bool {
    guard edits.schemaVersion != nil else { return true }
    guard let meta = group.table(named: FormatConstants.metadataTable), meta.column(named: "version") != nil,
      meta.objectCount >= 1, let root = try? ArrayNode(group.reader, meta.clusterRoot)
    else { return false }
    return !root.isInner
  }

  /// Writes the new nodes into `sink` and returns the new group slots.
  ///
  /// `tableTops` (table slot -> ref) are table tops already rewritten by another editor
  /// (``ColumnEditor``) in the same transaction: they go into the new tables array as they
  /// are; `edits` must not change those tables again (their column renames belong to the
  /// other editor).
  public static func apply<S: NodeSink>(
    _ edits: Edits, to group: Group, tableTops: [Int: Ref] = [:], sink: inout S
  ) throws(FormatError) -> Result {
    let reader = group.reader
    let top = try ArrayNode(reader, group.topRef)
    let namesRef = try top.ref(0)
    let tablesRef = try top.ref(1)
    var replaced: [Ref] = []
    let tablesNode = try ArrayNode(reader, tablesRef)
    var tableElements = try elements(of: tablesNode)
    var changedTables = false
    for (slot, ref) in tableTops {
      guard slot >= 0, slot < tableElements.count else { throw FormatError.corrupt("there is no table in slot \(slot)") }
      tableElements[slot] = Int64(ref.rawValue)
      changedTables = true
    }

    for table in group.tables {
      var slots = try elements(of: try ArrayNode(reader, table.ref))
      var changed = false
      if let renames = edits.columnRenames[table.name], !renames.isEmpty {
        let specNode = try ArrayNode(reader, try refAt(slots, 0))
        var spec = try elements(of: specNode)
        let oldNamesNode = try ArrayNode(reader, try refAt(spec, 1))
        let leaf = try StringLeaf(oldNamesNode, isString: true)
        var names: [[UInt8]?] = []
        for i in 0..<oldNamesNode.count {
          let bytes = try leaf.bytes(i).map { Array($0) } ?? []
          let name = String(decoding: bytes, as: UTF8.self)
          names.append(renames[name].map { Array($0.utf8) } ?? bytes)
        }
        for (old, new) in renames {
          guard table.column(named: old) != nil else {
            throw FormatError.corrupt("table '\(table.name)' has no column '\(old)' to rename")
          }
          guard new.utf8.count <= 63 else { throw FormatError.corrupt("column name '\(new)' is longer than 63 bytes") }
        }
        spec[1] = Int64(sink.append(StringLeafEncoder.shortStringNode(names)).rawValue)
        replaced += [oldNamesNode.ref, specNode.ref]
        slots[0] = Int64(sink.append(NodeEncoder.refArray(spec)).rawValue)
        changed = true
      }
      if table.name == FormatConstants.metadataTable, let version = edits.schemaVersion {
        guard let column = table.column(named: "version") else {
          throw FormatError.corrupt("the metadata table has no 'version' column")
        }
        let leafNode = try ArrayNode(reader, try refAt(slots, 2))
        guard !leafNode.isInner else { throw FormatError.corrupt("the metadata table spans several clusters") }
        var leaf = try elements(of: leafNode)
        let slot = 1 + column.leafIndex
        guard slot < leaf.count else { throw FormatError.corrupt("the metadata table's cluster has no version column") }
        let valuesNode = try ArrayNode(reader, try refAt(leaf, slot))
        guard valuesNode.count >= 1 else { throw FormatError.corrupt("the metadata table is empty") }
        var values: [Int64] = []
        for i in 0..<valuesNode.count { values.append(try valuesNode.get(i)) }
        values[0] = version
        leaf[slot] = Int64(sink.append(NodeEncoder.integers(values)).rawValue)
        slots[2] = Int64(sink.append(NodeEncoder.refArray(leaf)).rawValue)
        replaced += [valuesNode.ref, leafNode.ref]
        changed = true
      }
      if changed {
        guard tableTops[table.slot] == nil else {
          throw FormatError.corrupt("table '\(table.name)' is edited by two editors in one commit")
        }
        replaced.append(table.ref)
        tableElements[table.slot] = Int64(sink.append(NodeEncoder.refArray(slots)).rawValue)
        changedTables = true
      }
    }

    var newNames = namesRef
    if !edits.tableRenames.isEmpty {
      let namesNode = try ArrayNode(reader, namesRef)
      let leaf = try StringLeaf(namesNode, isString: true)
      var names: [[UInt8]?] = []
      var existing = Set<String>()
      for i in 0..<namesNode.count {
        let name = String(decoding: try leaf.bytes(i).map { Array($0) } ?? [], as: UTF8.self)
        existing.insert(name)
        names.append(Array((edits.tableRenames[name] ?? name).utf8))
      }
      for (old, new) in edits.tableRenames {
        guard existing.contains(old) else { throw FormatError.corrupt("there is no table '\(old)' to rename") }
        guard !existing.contains(new) else { throw FormatError.corrupt("a table '\(new)' already exists") }
        guard new.utf8.count <= 63 else { throw FormatError.corrupt("table name '\(new)' is longer than 63 bytes") }
      }
      newNames = sink.append(StringLeafEncoder.shortStringNode(names))
      replaced.append(namesRef)
    }
    var newTables = tablesRef
    if changedTables {
      newTables = sink.append(NodeEncoder.refArray(tableElements))
      replaced.append(tablesRef)
    }
    return Result(tableNames: newNames, tables: newTables, replaced: replaced)
  }

  static func elements(of node: ArrayNode) throws(FormatError) -> [Int64] {
    var out: [Int64] = []
    out.reserveCapacity(node.count)
    for i in 0..<node.count { out.append(try node.get(i)) }
    return out
  }

  static func refAt(_ elements: [Int64], _ i: Int) throws(FormatError) -> Ref {
    guard i < elements.count, elements[i] > 0, elements[i] & 1 == 0 else {
      throw FormatError.corrupt("expected a ref in slot \(i)")
    }
    return Ref(Int(elements[i]))
  }
}
