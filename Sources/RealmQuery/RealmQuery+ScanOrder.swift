import RealmModel
import RealmFormat

/// The keys of a scan in the order of SORT, DISTINCT and LIMIT, read from the columns the
/// descriptors name (no object is decoded), when each of those is a property of the queried
/// object itself.
extension RealmQuery {
  /// The keys Realm returns for a scan of `table`, or nil when a SORT or DISTINCT column is
  /// reached through a link or a dictionary (the caller reads such objects one by one).
  ///
  /// SORT then LIMIT(k) keeps the best k rows of each chunk and then of all (a bounded heap;
  /// plain values and keys for one int, double or date property, ``TopKeys``),
  /// a first DISTINCT keeps only the first object of each value (``DistinctRows``), a first
  /// LIMIT stops the scan; whatever remains is applied to the rows kept, as
  /// ``DescriptorExecution`` applies it to all.
  func scannedObjectKeys(_ group: Group, _ table: Table, progress: ProgressCounter?) throws -> [Int64]? {
    let (columns, offsets) = DescriptorExecution.columns(descriptors)
    guard columns.allSatisfy(\.isLocal) else { return nil }
    let options = scanOptions
    if descriptors.isEmpty {
      var keys: [Int64] = []
      try scannedKeys(group, table, progress: progress) { keys.append($0) }
      return keys
    }
    let rowsOf: @Sendable (SelectionBatch, [Int], (DescriptorRow) -> Void) throws -> Void = { batch, selected, add in
      var values: [Int: ColumnValues] = [:]
      for c in columns where values[c.property] == nil { values[c.property] = try batch.values(c.property) }
      for i in selected {
        let key = batch.key(i)
        // The scan is in key order, so the key orders ties as the position among the matches would.
        add(DescriptorRow(key: key, index: Int(key), values: columns.map { c -> QueryValue? in c.localValue(values[c.property]?.value(at: i) ?? .null) }))
      }
    }
    var rows: [DescriptorRow] = []
    switch (descriptors[0], descriptors.count > 1 ? descriptors[1] : nil) {
    case (.limit(let n), _):
      struct Enough: Error {}
      guard n > 0 else { return [] }
      do {
        try scan(
          group, table, options: options, progress: progress, initial: { [DescriptorRow]() },
          work: { batch, selected, out in try rowsOf(batch, selected) { out.append($0) } },
          consume: { chunk in
            rows.append(contentsOf: chunk.prefix(n - rows.count))
            if rows.count >= n { throw Enough() }
          })
      } catch is Enough {}
    case (.sort(let sort), .limit(let k)?)
    where k <= TopRows.maxCount && columns.count == 1 && TopKeys.handles(schema.classes[classIndex].properties[sort[0].0.property]):
      let (column, ascending) = sort[0]
      var top = TopKeys(capacity: k, ascending: ascending)
      try scan(
        group, table, options: options, progress: progress, initial: { TopKeys(capacity: k, ascending: ascending) },
        work: { batch, selected, heap in try heap.insert(batch, selected, property: column.property) },
        consume: { chunk in for entry in chunk.entries { top.insert(entry) } })
      rows = top.rows(column)
    case (.sort(let sort), .limit(let k)?) where k <= TopRows.maxCount:
      let ascending = sort.map(\.ascending)
      var top = TopRows(capacity: k, ascending: ascending)
      try scan(
        group, table, options: options, progress: progress, initial: { TopRows(capacity: k, ascending: ascending) },
        work: { batch, selected, heap in try TopRows.insert(batch, selected, columns: columns, into: &heap) },
        consume: { chunk in for row in chunk.rows { top.insert(row) } })
      rows = top.rows
    case (.distinct(let distinct), _) where !distinct.contains(where: \.isMixed):
      return try scannedDistinctKeys(group, table, distinct, offsets: offsets, progress: progress, rowsOf: rowsOf)
    default:
      try scan(
        group, table, options: options, progress: progress, initial: { [DescriptorRow]() },
        work: { batch, selected, out in try rowsOf(batch, selected) { out.append($0) } },
        consume: { rows.append(contentsOf: $0) })
    }
    return DescriptorExecution.apply(descriptors, to: rows, offsets: offsets)
  }
}

extension RealmQuery {
  /// The keys of a query whose first descriptor is DISTINCT of local, non-mixed columns: the
  /// first object of each value in key order (what Realm's sort, unique and sort back by
  /// position give), then the descriptors after it. A LIMIT(k) right after the DISTINCT ends
  /// the scan once k objects are kept: later objects come after them in key order, so Realm
  /// drops them. One property of a plain type goes through ``DistinctKeys``, others through
  /// ``DistinctRows``; rows of values are made only when a later SORT or DISTINCT reads them.
  func scannedDistinctKeys(
    _ group: Group, _ table: Table, _ distinct: [DescriptorColumn], offsets: [Int], progress: ProgressCounter?,
    rowsOf: @escaping @Sendable (SelectionBatch, [Int], (DescriptorRow) -> Void) throws -> Void
  ) throws -> [Int64] {
    let rest = Array(descriptors.dropFirst())
    let restOffsets = Array(offsets.dropFirst())
    var stopAfter = Int.max
    if case .limit(let k)? = rest.first { stopAfter = k }
    if stopAfter <= 0 { return [] }
    let onlyLimits = rest.allSatisfy { if case .limit = $0 { true } else { false } }
    let rowMaker = onlyLimits ? nil : rowsOf
    let found: (keys: [Int64], rows: [DescriptorRow])
    let property = schema.classes[classIndex].properties[distinct[0].property]
    func typed<Value: Hashable & Sendable>(_ read: @escaping DistinctValueReader<Value>) throws -> (keys: [Int64], rows: [DescriptorRow]) {
      let kept = try distinctScan(group, table, property: distinct[0].property, progress: progress, stopAfter: stopAfter, rowsOf: rowMaker, read)
      return (kept.keys, kept.rows)
    }
    switch (distinct.count, property.collection, property.type) {
    case (1, .single, .int), (1, .single, .bool), (1, .single, .float), (1, .single, .double):
      found = try typed(DistinctValues.plainBits)
    case (1, .single, .date): found = try typed(DistinctValues.timestamps)
    case (1, .single, .objectId): found = try typed(DistinctValues.objectIds)
    case (1, .single, .uuid): found = try typed(DistinctValues.uuids)
    case (1, .single, .string), (1, .single, .data): found = try typed(DistinctValues.bytes)
    default:
      struct Enough: Error {}
      var seen = DistinctRows(width: distinct.count)
      do {
        try scan(
          group, table, options: scanOptions, progress: progress, initial: { DistinctRows(width: distinct.count) },
          work: { batch, selected, kept in try rowsOf(batch, selected) { kept.insert($0) } },
          consume: { chunk in
            for row in chunk.rows {
              seen.insert(row)
              if seen.rows.count >= stopAfter { throw Enough() }
            }
          })
      } catch is Enough {}
      found = ([], seen.rows)
      if onlyLimits { return Array(seen.rows.lazy.map(\.key).prefix(Self.limit(rest))) }
    }
    if onlyLimits { return Array(found.keys.prefix(Self.limit(rest))) }
    return DescriptorExecution.apply(rest, to: found.rows, offsets: restOffsets)
  }

  /// The number of objects a run of LIMITs keeps (all for none).
  static func limit(_ limits: [BoundDescriptor]) -> Int {
    limits.reduce(Int.max) { n, d in if case .limit(let k) = d { min(n, max(0, k)) } else { n } }
  }

  /// The first object of each value of `property` among the objects the scan selects, in key
  /// order (see ``DistinctKeys``), at most `stopAfter` of them; with `rowsOf`, their rows too.
  func distinctScan<Value: Hashable & Sendable>(
    _ group: Group, _ table: Table, property: Int, progress: ProgressCounter?, stopAfter: Int,
    rowsOf: (@Sendable (SelectionBatch, [Int], (DescriptorRow) -> Void) throws -> Void)?,
    _ read: @escaping DistinctValueReader<Value>
  ) throws -> DistinctKeys<Value> {
    var whole = DistinctKeys<Value>()
    do {
      try scan(
        group, table, options: scanOptions, progress: progress, initial: { DistinctKeys<Value>() },
        work: { batch, selected, part in
          var firsts: [Int] = []
          try read(batch, selected, property) { i, value in
            guard part.isFirst(value) else { return }
            part.keys.append(batch.key(i))
            part.values.append(value)
            if rowsOf != nil { firsts.append(i) }
          }
          if let rowsOf, !firsts.isEmpty { try rowsOf(batch, firsts) { part.rows.append($0) } }
        },
        consume: { part in
          for n in part.keys.indices where whole.isFirst(part.values[n]) {
            whole.keys.append(part.keys[n])
            if rowsOf != nil { whole.rows.append(part.rows[n]) }
            if whole.keys.count >= stopAfter { throw ScanEnough() }
          }
        })
    } catch is ScanEnough {}
    return whole
  }
}

/// Thrown by a scan's consumer once it has every object it needs.
struct ScanEnough: Error {}

extension TopRows {
  /// Inserts the objects at `selected` of `batch` (every column local), building a row only
  /// for an object that beats the heap's last row on the first column or ties with it: most
  /// objects of a large scan are rejected without one.
  static func insert(_ batch: SelectionBatch, _ selected: [Int], columns: [DescriptorColumn], into heap: inout TopRows) throws {
    var values: [Int: ColumnValues] = [:]
    for c in columns where values[c.property] == nil { values[c.property] = try batch.values(c.property) }
    let first = columns[0]
    let firstValues = values[first.property]
    for i in selected {
      let firstValue = first.localValue(firstValues?.value(at: i) ?? .null)
      if heap.rejects(firstValue) { continue }
      let key = batch.key(i)
      var row = DescriptorRow(key: key, index: Int(key), values: [firstValue])
      for c in columns.dropFirst() { row.values.append(c.localValue(values[c.property]?.value(at: i) ?? .null)) }
      heap.insert(row)
    }
  }
}

/// The first row of each distinct value among rows inserted in key order (DISTINCT's
/// result, in that order): only the rows kept are held, found by a hash of their values and
/// told apart by Realm's comparison. For columns of one type each (not `mixed`), whose
/// comparison is an equality the hash respects.
struct DistinctRows {
  /// The values of a row's DISTINCT columns as a set element.
  struct Values: Hashable {
    let values: [QueryValue?]

    static func == (a: Values, b: Values) -> Bool {
      guard a.values.count == b.values.count else { return false }
      for (x, y) in zip(a.values, b.values) {
        switch (x, y) {
        case (nil, nil): continue
        case (let x?, let y?): if ValueOrder.compare(x, y) != 0 { return false }
        default: return false
        }
      }
      return true
    }

    func hash(into hasher: inout Hasher) {
      for v in values { Self.hash(v, into: &hasher) }
    }

    /// Equal values (``ValueOrder/compare(_:_:)`` 0) of one type hash alike: ±0 as 0, every
    /// NaN and decimal alike (the comparison tells them apart).
    static func hash(_ value: QueryValue?, into hasher: inout Hasher) {
      switch value {
      case nil, .null?: hasher.combine(0)
      case .bool(let b)?: hasher.combine(b)
      case .int(let i)?: hasher.combine(i)
      case .float(let f)?: hasher.combine(f.isNaN ? 1 : (f == 0 ? 0 : Double(f).bitPattern))
      case .double(let d)?: hasher.combine(d.isNaN ? 1 : (d == 0 ? 0 : d.bitPattern))
      case .string(let s)?: hasher.combine(s)
      case .binary(let b)?: hasher.combine(b)
      case .timestamp(let t)?:
        hasher.combine(t.seconds)
        hasher.combine(t.nanoseconds)
      case .objectKey(let l)?: hasher.combine(l.key)
      default: hasher.combine(2)
      }
    }
  }

  let width: Int
  private var seen: Set<Values> = []
  /// The rows kept, in the order inserted.
  private(set) var rows: [DescriptorRow] = []

  init(width: Int) { self.width = width }

  /// Keeps `row` unless a row with equal values was kept (rows with a null link are dropped,
  /// as DISTINCT drops them).
  mutating func insert(_ row: DescriptorRow) {
    let values = Values(values: Array(row.values.prefix(width)))
    guard !values.values.contains(where: { $0 == nil }), seen.insert(values).inserted else { return }
    rows.append(row)
  }
}
