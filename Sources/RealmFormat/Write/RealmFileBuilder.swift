import RealmModel
/// Writes a complete, new Realm file of format 24 (or 20, 22, 23: `WritableFileFormat`) from
/// a schema and objects, streaming: the
/// column leaves of every 256 objects are written as soon as those objects are complete;
/// only keys (as runs of consecutive keys), links (for backlinks) and index entries are kept
/// until ``finish()``.
///
/// Objects of a class must be appended in ascending key order (classes may interleave).
/// Values come in the class's property order: links as `RealmValue.link(_:)` naming the
/// target's key, embedded objects inline as `RealmValue.embedded(_:)` (the builder gives
/// them keys in their own table and writes the parent link and the backlink).
///
/// The file layout is described in docs/writing.md: the committed (non-streaming) form with
/// an 11-slot top array like an SDK's file, history type InRealm without history yet, and
/// the unused tail of the last page in the free list.
public final class RealmFileBuilder<Sink: SequentialNodeSink> {
  /// Where the nodes go.
  public var sink: Sink
  var tables: [TablePlan]
  var states: [TableState]
  /// Table index by class name.
  let tableIndex: [String: Int]
  /// Table key by class name, for typed links in Mixed values.
  let tableKeys: [String: Int64]
  /// Links collected for backlink columns, per table and backlink position: (target key,
  /// origin key) pairs, sorted by target in runs kept in ``scratch``.
  var backlinkPairs: [[SortedPairRuns]]
  /// Where the sorted runs of index entries and backlinks go.
  let scratch: any ScratchStorage
  /// Backlink position in the target of each (origin table, origin leaf, target table) link.
  var backlinkColumn: [BacklinkSource: Int] = [:]
  /// The same for link columns, per table and column (-1 for none): looked up per link
  /// without hashing.
  var linkBacklinks: [[Int]] = []
  /// The class of the last appended object and its table: objects come in runs of a class.
  var lastAppend: (className: String, table: Int)?
  let schemaVersion: Int64?
  /// The file format written.
  public let fileFormat: WritableFileFormat
  var finished = false
  /// Set when an append failed half-way: the tables may hold part of that object, so the
  /// builder refuses to go on rather than write an inconsistent file.
  var failedObject: String?
  /// Per table and public column, what `resolve` needs on its fast path (no reference counting).
  let columnKinds: [[ColumnKind]]
  /// Format 20 only: the objects of top-level classes, held until ``finish()`` because the
  /// keys of objects with a primary key derive from it (§4.9) and links to them follow.
  var heldObjects: [HeldObject] = []

  /// Starts a file for `schema` (its `schemaVersion` goes into the `metadata` table; none is
  /// written when it is nil), writing into `sink`.
  ///
  /// - Parameters:
  ///   - schema: the classes of the file and its schema version.
  ///   - plainTables: tables that are not classes (no `class_` prefix: the tables of files
  ///     written with Realm Core directly), each named by its `ObjectSchema.name`; their
  ///     objects are appended with that name as the class name.
  ///   - fileFormat: the format written; the schema and values must fit it (format 24 only:
  ///     nested collections in Mixed; 21 and later: Mixed, UUID, sets and dictionaries), else
  ///     an error names the first property that does not.
  ///   - sink: where the nodes of the file go, in order.
  ///   - scratch: where the builder keeps what it collects per object until ``finish()``
  ///     (search index entries and links, in sorted runs); a temporary file keeps its memory
  ///     flat, whatever the number of objects.
  public init(
    schema: Schema, plainTables: [ObjectSchema] = [], fileFormat: WritableFileFormat = .current, sink: Sink,
    scratch: any ScratchStorage = MemoryScratchStorage()
  ) throws(FormatError) {
    self.sink = sink
    self.scratch = scratch
    self.fileFormat = fileFormat
    schemaVersion = schema.schemaVersion
    tables = try TablePlan.plan(schema, plainTables: plainTables, format: fileFormat)
    columnKinds = tables.map { t in
      t.columns.map { c in
        ColumnKind(
          type: c.property?.type ?? .int, collection: c.property?.collection ?? .single,
          isOptional: c.property?.isOptional ?? false)
      }
    }
    states = tables.map { t in
      TableState(
        columnCount: t.columns.count, indexed: t.columns.indices.filter { t.columns[$0].hasIndex },
        fullTextIndexed: t.columns.indices.filter { t.columns[$0].hasFullTextIndex },
        // Embedded objects get their keys as their parents are appended, in another order.
        keysAscend: !t.isEmbedded, scratch: scratch)
    }
    var index = [String: Int]()
    var keys = [String: Int64]()
    for t in tables {
      if let c = t.objectSchema {
        index[c.name] = t.key
        keys[c.name] = Int64(t.key)
      }
    }
    tableIndex = index
    tableKeys = keys
    backlinkPairs = tables.map { t in t.backlinks.map { _ in SortedPairRuns(scratch: scratch, bySecond: false) } }
    for (ti, t) in tables.enumerated() {
      for (bi, b) in t.backlinks.enumerated() {
        if let origin = b.oppositeTable {
          backlinkColumn[BacklinkSource(originTable: origin, originLeaf: b.oppositeColumn.leafIndex, targetTable: ti)] = bi
        }
      }
    }
    linkBacklinks = tables.enumerated().map { (t, plan) in
      plan.columns.indices.map { c in
        guard let target = plan.columns[c].oppositeTable else { return -1 }
        return backlinkColumn[BacklinkSource(originTable: t, originLeaf: c, targetTable: target)] ?? -1
      }
    }
    if let version = schemaVersion {
      try appendRow(table: 0, key: try nextKey(table: 0, requested: 0), values: [.int(version)])
    }
  }

  /// Appends an object of top-level class `className` and returns its key.
  ///
  /// `key` nil assigns the next key: sequential for classes with a primary key, Realm's
  /// squeezed keys otherwise (§4.9). A given key must be larger than the class's previous one.
  ///
  /// In format 20 the objects of a class with a primary key get the key Realm Core 10 derives
  /// from it instead (links given with the returned key are rewritten to it), and nothing is
  /// written before ``finish()``.
  @discardableResult
  public func append(className: String, key: Int64?, values: [RealmValue]) throws(FormatError) -> Int64 {
    guard !finished else { throw FormatError.corrupt("objects cannot be added after the file is finished") }
    if let failedObject { throw FormatError.corrupt("the file cannot be continued after the error in \(failedObject)") }
    let t: Int
    if let last = lastAppend, last.className == className {
      t = last.table
    } else {
      guard let found = tableIndex[className] else {
        throw FormatError.corrupt("class '\(className)' is not in the schema")
      }
      t = found
      lastAppend = (className, found)
    }
    guard !tables[t].isEmbedded else {
      throw FormatError.corrupt("objects of embedded class '\(className)' can only be added inside their parent")
    }
    let assigned = try nextKey(table: t, requested: key)
    if fileFormat.derivesObjectKeysFromPrimaryKeys {
      heldObjects.append(HeldObject(table: t, key: assigned, values: values))
      return assigned
    }
    do throws(FormatError) {
      try appendRow(table: t, key: assigned, values: values)
      try flushFullClusters()
    } catch {
      failedObject = "object \(assigned) of class '\(className)'"
      throw error
    }
    return assigned
  }

  /// The key the next object of table `t` gets, checking a requested one.
  func nextKey(table t: Int, requested: Int64?) throws(FormatError) -> Int64 {
    // Fields, not a copy of the whole state: this runs once per object.
    let lastKey = states[t].lastKey
    let sequence = states[t].sequence
    let squeezedKeys = tables[t].usesSqueezedKeys
    let key: Int64
    if let requested {
      guard requested >= 0 && requested < Int64.max else {
        throw FormatError.corrupt("object key \(requested) of class '\(className(t))' is out of range")
      }
      if let lastKey, requested <= lastKey {
        throw FormatError.corrupt("object key \(requested) of class '\(className(t))' is not above the previous key \(lastKey)")
      }
      key = requested
    } else {
      key = squeezedKeys ? TableState.squeezed(sequence) : sequence
      guard key >= 0 && key < Int64.max && (lastKey.map { key > $0 } ?? true) else {
        throw FormatError.corrupt("the object key sequence of class '\(className(t))' is exhausted")
      }
    }
    states[t].lastKey = key
    // Format 20 derives the keys of objects with a primary key from it: their table's
    // sequence stays 0, as Realm Core 10 leaves it.
    if !(fileFormat.derivesObjectKeysFromPrimaryKeys && !squeezedKeys) {
      states[t].sequence = max(sequence, squeezedKeys ? TableState.sequenceAfter(squeezedKey: key) : key + 1)
    }
    return key
  }

  /// Adds a row to the table's pending cluster; its values are resolved first (embedded
  /// objects get their keys, links are recorded for backlinks, sets are sorted).
  func appendRow(table t: Int, key: Int64, values: [RealmValue]) throws(FormatError) {
    let columns = tables[t].columns
    guard values.count == columns.count else {
      throw FormatError.corrupt(
        "an object of '\(tables[t].objectSchema?.name ?? tables[t].name)' has \(values.count) values but the class has \(columns.count) properties")
    }
    // Reserve the row first: embedded children of the same table get larger keys and must
    // follow their parent.
    let slot = states[t].pendingKeys.count
    states[t].pendingKeys.append(key)
    states[t].pendingRows.append([])
    // The row shares the given values' storage until a value is stored differently.
    var row = values
    for (c, value) in values.enumerated() {
      let changed = try resolve(value, table: t, column: c, originKey: key)
      if columns[c].hasIndex {
        try states[t].indexEntries[c]!.append(changed ?? value, key: key, tableKeys: tableKeys)
      } else if columns[c].hasFullTextIndex {
        states[t].fullTextEntries[c]!.append(changed ?? value, key: key)
      }
      if let changed { row[c] = changed }
    }
    states[t].pendingRows[slot] = row
  }
}

/// An object held until the file is finished (format 20).
struct HeldObject {
  var table: Int
  var key: Int64
  var values: [RealmValue]
}

/// The shape of a public column, as plain values.
struct ColumnKind {
  var type: PropertyType
  var collection: CollectionKind
  var isOptional: Bool

  /// True when `value` can be stored as is in a single column of this kind.
  func matches(_ value: RealmValue) -> Bool {
    switch (type, value) {
    case (_, .null): return isOptional
    case (.int, .int), (.bool, .bool), (.string, .string), (.double, .double), (.float, .float),
      (.date, .date), (.data, .data), (.objectId, .objectId), (.uuid, .uuid), (.decimal128, .decimal128):
      return true
    default: return false
    }
  }
}

/// Identifies the backlink column a link column (or Mixed column) feeds in a target table.
struct BacklinkSource: Hashable {
  var originTable: Int
  var originLeaf: Int
  var targetTable: Int
}

/// Per-table progress while objects stream in.
struct TableState {
  /// Keys of all flushed objects, ascending (as runs: a few bytes per cluster).
  var keys = KeyRuns()
  /// Objects not yet written (at most a cluster's worth between appends).
  var pendingKeys: [Int64] = []
  var pendingRows: [[RealmValue]] = []
  /// Written clusters: where their keys start in ``keys`` and their column leaves.
  var clusters: [(keyStart: Int, count: Int, columns: [Ref])] = []
  /// The key sequence number (table slot 9).
  var sequence: Int64 = 0
  var lastKey: Int64?
  /// Index entries by column position (nil for columns without an index).
  var indexEntries: [IndexEntryCollector?]
  /// The words of the full-text indexed columns, by column position (nil for the others).
  var fullTextEntries: [FullTextIndexEntries?]

  init(columnCount: Int, indexed: [Int], fullTextIndexed: [Int], keysAscend: Bool, scratch: any ScratchStorage) {
    indexEntries = Array(repeating: nil, count: columnCount)
    for c in indexed { indexEntries[c] = IndexEntryCollector(scratch: scratch, keysAscend: keysAscend) }
    fullTextEntries = Array(repeating: nil, count: columnCount)
    for c in fullTextIndexed { fullTextEntries[c] = FullTextIndexEntries(scratch: scratch) }
  }

  /// The squeezed key of sequence number `n` in a local file (§4.9).
  static func squeezed(_ n: Int64) -> Int64 { (n & 0xFF) | ((n & ~0xFF) << 8) }

  /// The smallest sequence number whose squeezed key is above `key`.
  static func sequenceAfter(squeezedKey key: Int64) -> Int64 {
    let high = key >> 16
    if (key >> 8) & 0xFF == 0 { return ((high << 8) | (key & 0xFF)) + 1 }
    return (high + 1) << 8
  }
}
