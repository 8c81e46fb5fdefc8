import RealmFormat
import RealmModel
import RealmJSON

/// The update side of a streamed `insert --upsert` (``StreamedAppend``): each decoded line's
/// int primary key is looked up among the file's, and the lines of existing objects are
/// gathered a cluster leaf at a time; when the input moves on to a later leaf, the gathered
/// leaf is changed (``ClusterAppender/Stream/change(leaf:rows:columns:values:unchanged:sink:)``).
///
/// The file's primary keys are read a leaf at a time, as far as the input's reach, while they
/// ascend in key order (as generated ids do): a value between two read ones is then absent
/// unless the unread leaves hold it, which the primary key's search index rules out. When the
/// index cannot (or after many such lookups), or the keys do not ascend, every leaf is read
/// (and sorted when they do not ascend). Memory holds the primary keys read and one leaf's lines.
///
/// The existing objects must come in key order, each once (a dump's order, generated ids):
/// a line of an earlier object, a repeated key, a `$key` other than the object's, an embedded
/// object given for an existing object, or a changed value the in-place change does not write
/// (a link, mixed, collection or indexed value) does not fit (``StreamedAppend/DoesNotFit``),
/// and the general path does the upsert.
struct StreamedUpsert {
  let primaryKey: Int
  /// Public column of each property (schema order).
  let columnOf: [Int]
  /// By property: whether a line may give it for an existing object: anything but embedded
  /// objects (whether its column may change in place is asked when it does: a link, mixed
  /// value or collection given unchanged stays on this path, as a dump's lines give them).
  let comparable: [Bool]
  /// The existing leaves, and the end (exclusive) of each as a position in key order.
  let leaves: [ClusterTreeWriter.Leaf]
  let leafEnds: [Int]
  let group: Group
  let primaryKeyColumn: Column
  let index: SearchIndex?
  /// The object keys and primary keys of the leaves read so far, in key order, and whether
  /// the primary keys ascend.
  var keys: [Int64] = []
  var values: [Int64] = []
  var leavesRead = 0
  var ascending = true
  /// Once every leaf is read, when the values do not ascend: them sorted, with their positions.
  var sorted: (values: [Int64], positions: [Int])?
  /// Values looked up in the search index.
  var indexLookups = 0
  /// Where the next lookup looks first (after the last primary key found).
  var next = 0
  /// The leaf being gathered: the rows of its lines, their values by property (nil where a line
  /// does not give one; copied out of the lines, which are freed where they were decoded), and
  /// which properties some line gives.
  var leaf = 0
  var rows: [Int] = []
  var given: [[RealmValue?]]
  var givenAny: [Bool]
  /// The position of the last existing object given (key order).
  var lastPosition = -1
  /// Objects whose values changed.
  var updated = 0

  /// Index lookups before the remaining leaves are read instead.
  static let maxIndexLookups = 1000

  init(cls: ObjectSchema, schema: Schema, table: Table, group: Group, stream: ClusterAppender.Stream) throws {
    guard let name = cls.primaryKey, let pk = cls.properties.firstIndex(where: { $0.name == name }) else { throw StreamedAppend.DoesNotFit() }
    let columns = table.publicColumns
    let found = cls.properties.map { p in columns.firstIndex { $0.name == p.name } }
    guard let columnOf = found as? [Int] else { throw StreamedAppend.DoesNotFit() }
    primaryKey = pk
    self.columnOf = columnOf
    given = cls.properties.map { _ in [] }
    givenAny = cls.properties.map { _ in false }
    comparable = cls.properties.map { p in !(p.objectType.flatMap { schema.objectSchema(named: $0)?.isEmbedded } ?? false) }
    var ends: [Int] = []
    var total = 0
    leaves = stream.existingLeaves
    for leaf in leaves {
      total += leaf.count
      ends.append(total)
    }
    leafEnds = ends
    self.group = group
    primaryKeyColumn = columns[columnOf[pk]]
    index = SearchIndex(column: primaryKeyColumn, in: group)
  }

  /// The position (key order) of the file's object with the primary key of `object`, nil when
  /// the file has none.
  mutating func position(of object: DecodedObject) throws -> Int? {
    guard !object.missing.contains(primaryKey), case .int(let value) = object.values[primaryKey] else { throw StreamedAppend.DoesNotFit() }
    if let sorted {
      let i = Self.lowerBound(value, in: sorted.values)
      return i < sorted.values.count && sorted.values[i] == value ? sorted.positions[i] : nil
    }
    while leavesRead < leafEnds.count && (values.last.map { $0 < value } ?? true) {
      try readLeaf()
      if !ascending {
        try readAll()
        return try position(of: object)
      }
    }
    // Past the last value (the loop read every leaf then): new, as the ids a table's
    // inserts take usually are.
    guard let last = values.last, value <= last else { return nil }
    // Inputs in primary-key order find theirs next to the last one found.
    if next < values.count, values[next] == value {
      next += 1
      return next - 1
    }
    let i = Self.lowerBound(value, in: values)
    if i < values.count && values[i] == value {
      next = i + 1
      return i
    }
    if leavesRead == leafEnds.count { return nil }
    // Absent from the leaves read; the others hold larger values unless the keys stop
    // ascending there, which the index rules out when it has no entry for the value.
    if indexLookups < Self.maxIndexLookups, let index {
      indexLookups += 1
      if try index.candidates(equalTo: SearchIndex.indexData(.int(value)), limit: 0) == [] { return nil }
    }
    try readAll()
    return try position(of: object)
  }

  /// Reads the primary keys of the next leaf.
  private mutating func readLeaf() throws {
    guard let (leafKeys, ints) = try group.keysAndInts(ofLeaf: leaves[leavesRead], column: primaryKeyColumn) else {
      throw StreamedAppend.DoesNotFit()
    }
    if ascending, let first = ints.first {
      ascending = (values.last.map { $0 < first } ?? true) && ints.indices.dropFirst().allSatisfy { ints[$0 - 1] < ints[$0] }
    }
    keys += leafKeys
    values += ints
    leavesRead += 1
  }

  /// Reads every leaf left; sorts the values when they do not ascend.
  private mutating func readAll() throws {
    while leavesRead < leafEnds.count { try readLeaf() }
    if !ascending && sorted == nil {
      let order = values.indices.sorted { values[$0] < values[$1] }
      let sortedValues = order.map { values[$0] }
      // A primary key twice in the file: the general path says what it makes of it.
      guard sortedValues.indices.dropFirst().allSatisfy({ sortedValues[$0 - 1] < sortedValues[$0] }) else { throw StreamedAppend.DoesNotFit() }
      sorted = (sortedValues, order)
    }
  }

  static func lowerBound(_ value: Int64, in values: [Int64]) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let mid = (low + high) / 2
      if values[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The object key of the existing object at `position` (as ``position(of:)`` gives it).
  func key(at position: Int) -> Int64 { keys[position] }

  /// Takes the line of the existing object at `position`; the leaves before its leaf are
  /// changed first.
  mutating func update<S: NodeSink>(_ object: DecodedObject, at position: Int, stream: inout ClusterAppender.Stream, sink: inout S) throws {
    guard position > lastPosition else { throw StreamedAppend.DoesNotFit() }
    lastPosition = position
    for (p, ok) in comparable.enumerated() where !ok && p != primaryKey && !object.missing.contains(p) {
      throw StreamedAppend.DoesNotFit()
    }
    while leaf < leafEnds.count && position >= leafEnds[leaf] {
      try flush(stream: &stream, sink: &sink)
      leaf += 1
    }
    guard leaf < leafEnds.count else { throw StreamedAppend.DoesNotFit() }
    let start = leaf == 0 ? 0 : leafEnds[leaf - 1]
    rows.append(position - start)
    // The primary key matched: it is never compared.
    for p in given.indices where p != primaryKey {
      if object.missing.contains(p) {
        given[p].append(nil)
      } else {
        given[p].append(object.values[p])
        givenAny[p] = true
      }
    }
  }

  /// Changes the gathered leaf.
  mutating func flush<S: NodeSink>(stream: inout ClusterAppender.Stream, sink: inout S) throws {
    guard !rows.isEmpty else { return }
    let properties = givenAny.indices.filter { givenAny[$0] }
    if !properties.isEmpty {
      updated += try stream.change(
        leaf: leaf, rows: rows, columns: properties.map { columnOf[$0] }, values: properties.map { given[$0] },
        unchanged: Self.unchanged, sink: &sink)
    }
    rows.removeAll(keepingCapacity: true)
    for p in given.indices { given[p].removeAll(keepingCapacity: true) }
    for p in givenAny.indices { givenAny[p] = false }
  }

  /// Whether each row's stored value in `column` equals its given value, as the general path's
  /// unchanged-update check compares them (``InsertBatch/sameContent(_:row:_:)``).
  static func unchanged(_ column: ColumnValues, _ rows: [Int], _ values: [RealmValue?]) -> [Bool] {
    var same = [Bool](repeating: false, count: rows.count)
    for (i, row) in rows.enumerated() {
      if let v = values[i] { same[i] = InsertBatch.sameContent(column, row: row, v) }
    }
    return same
  }
}
