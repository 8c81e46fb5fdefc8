import RealmFormat
import RealmModel

/// A query's condition evaluated on a batch of objects column by column (``SelectionBatch``):
/// comparisons of a property with a constant run in one loop over the column's leaf in the
/// file (no value per object; strings compared as bytes), or over its decoded values,
/// `AND`, `OR` and `NOT` combine the selections, and only conditions that need the whole
/// object (links, lists, expressions) are evaluated per object, on the objects still in
/// question. Gives exactly what the predicate gives object by object.
struct QueryBatchFilter: Sendable {
  indirect enum Node: Sendable {
    /// A property compared with a constant (Realm's column condition).
    case column(ColumnPredicate)
    /// `property == nil` / `!= nil`.
    case null(NullPredicate)
    /// `property IN {...}`.
    case inList(InListPredicate)
    case constant(Bool)
    case and([Node])
    case or([Node])
    case not(Node)
    /// `property TEXT "..."` of the object itself: its key among the index's keys.
    case text(TextPredicate)
    /// `dict.@keys` of the object's own dictionary compared with a constant, as the whole
    /// condition (see ``dictionaryKeys(_:_:_:_:)``).
    case dictionaryKeys(ComparePredicate, property: Int, constant: ValueGroup)
    /// Any other condition, evaluated per object.
    case object(any QueryPredicate)
  }

  let root: Node
  let classIndex: Int
  /// Compare on the leaves where a comparison allows (false: always on decoded values, the
  /// generic path tests compare with).
  var readsLeaves = true

  init(_ predicate: any QueryPredicate, classIndex: Int) {
    if let compare = predicate as? ComparePredicate, let (property, constant) = compare.ownDictionaryKeys {
      root = .dictionaryKeys(compare, property: property, constant: constant)
    } else {
      root = Self.node(predicate)
    }
    self.classIndex = classIndex
  }

  static func node(_ p: any QueryPredicate) -> Node {
    switch p {
    case let c as ColumnPredicate: return .column(c)
    case let n as NullPredicate: return .null(n)
    case let l as InListPredicate: return .inList(l)
    case let k as ConstantPredicate: return .constant(k.value)
    case let t as TextPredicate where t.chain.isEmpty: return .text(t)
    case let a as AndPredicate:
      // Column conditions first: they narrow the objects the per-object ones see.
      let children = a.children.map(node)
      return .and(children.filter { !$0.isPerObject } + children.filter(\.isPerObject))
    case let o as OrPredicate: return .or(o.children.map(node))
    case let n as NotPredicate: return .not(node(n.child))
    default: return .object(p)
    }
  }

  /// The string comparison that decides the whole condition's answer where it is false: the
  /// condition itself, or the first term of an `AND`; nil when there is none or it is not
  /// compared on the leaves (``StringLeafScan``).
  var leadingStringScan: (property: Int, scan: StringLeafScan)? {
    guard readsLeaves else { return nil }
    let lead: Node
    switch root {
    case .and(let children):
      guard let first = children.first else { return nil }
      lead = first
    default:
      lead = root
    }
    guard case .column(let p) = lead, let scan = p.leafScan else { return nil }
    return (p.property, scan)
  }

  /// True when no object of `range` can match: `scan` (``leadingStringScan``) finds nothing
  /// in the range's leaf of its property, read by `column` alone, without the batches' set-up.
  /// `scratch` holds the arrays of the selection between calls.
  static func rulesOut(
    _ range: ObjectRange, _ scan: StringLeafScan, in column: LeafColumnReader,
    scratch: inout (all: [Bool], out: [Bool])
  ) throws -> Bool {
    var found = false
    try column.forEachBatch(in: range) { column in
      guard !found else { return }
      guard column.kind == .string else {
        found = true
        return
      }
      let n = column.count
      if scratch.all.count < n {
        scratch.all = [Bool](repeating: true, count: n)
        scratch.out = [Bool](repeating: false, count: n)
      }
      _ = scratch.out.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
      try scan.select(column, scratch.all, &scratch.out)
      found = scratch.out.withUnsafeBytes { flags in
        // Bools are bytes 0 or 1: eight at a time.
        var any: UInt64 = 0
        var i = 0
        while i &+ 8 <= n {
          any |= flags.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          i &+= 8
        }
        while i < n {
          any |= UInt64(flags[i])
          i &+= 1
        }
        return any != 0
      }
    }
    return !found
  }

  /// The positions of the objects of `batch` that match.
  func select(_ batch: SelectionBatch, _ ctx: inout QueryContext) throws -> [Int] {
    var columns = DecodedColumns(batch: batch)
    let active = [Bool](repeating: true, count: batch.count)
    let matched = try evaluate(root, &columns, active, &ctx)
    var out: [Int] = []
    for i in 0..<batch.count where matched[i] { out.append(i) }
    return out
  }

  /// The filter's columns of one batch, decoded when first asked for.
  struct DecodedColumns {
    let batch: SelectionBatch
    private var decoded: [Int: ColumnValues?] = [:]

    init(batch: SelectionBatch) { self.batch = batch }

    var count: Int { batch.count }

    mutating func column(_ property: Int) throws -> ColumnValues? {
      if let c = decoded[property] { return c }
      let c = try batch.values(property)
      decoded[property] = c
      return c
    }

    /// Object `i`'s values: the filter's columns, the others null.
    mutating func values(at i: Int, width: Int) throws -> [RealmValue] {
      var out = [RealmValue](repeating: .null, count: width)
      for p in 0..<width { out[p] = try column(p)?.value(at: i) ?? .null }
      return out
    }
  }

  /// For each object: true when it is active and matches `node` (inactive ones are false).
  private func evaluate(_ node: Node, _ batch: inout DecodedColumns, _ active: [Bool], _ ctx: inout QueryContext) throws -> [Bool] {
    var out = [Bool](repeating: false, count: batch.count)
    switch node {
    case .constant(let value):
      if value { return active }
    case .column(let p):
      if readsLeaves, let leaf = batch.batch.leafColumn(p.property), try Self.leafLoop(p, leaf, active, &out) { return out }
      guard let column = try batch.column(p.property) else { return try perObject(p, &batch, active, &ctx) }
      if case .string(let strings) = column {
        strings.bytes.withUnsafeBufferPointer { all in
          for i in 0..<batch.count where active[i] {
            if strings.isNull(i) {
              out[i] = p.stringMatches(nil)
            } else {
              let start = strings.start(i)
              out[i] = p.stringMatches(UnsafeBufferPointer(rebasing: all[start..<(start + strings.length(i))]))
            }
          }
        }
      } else if case .bool(let bools) = column, p.kind == .bool {
        // Bools in one loop: what `matches` gives for each value, without a value per object.
        guard case .bool(let constant) = p.constant else { return out }
        let equal = p.condition == .equal || p.condition == .equalIns
        let nullMatches = p.condition == .notEqual || p.condition == .notEqualIns
        for i in 0..<batch.count where active[i] {
          out[i] = bools.isNull(i) ? nullMatches : (equal ? bools.values[i] == constant : bools.values[i] != constant)
        }
      } else {
        for i in 0..<batch.count where active[i] { out[i] = p.matches(column.value(at: i)) }
      }
    case .null(let p):
      guard let column = try batch.column(p.property) else { return try perObject(p, &batch, active, &ctx) }
      for i in 0..<batch.count where active[i] { out[i] = column.isNull(i) == p.isNull }
    case .inList(let p):
      guard let column = try batch.column(p.property) else { return try perObject(p, &batch, active, &ctx) }
      for i in 0..<batch.count where active[i] { out[i] = p.matches(column.value(at: i)) }
    case .and(let children):
      var current = active
      for child in children {
        current = try evaluate(child, &batch, current, &ctx)
        if !current.contains(true) { break }
      }
      return current
    case .or(let children):
      var remaining = active
      for child in children {
        let hit = try evaluate(child, &batch, remaining, &ctx)
        for i in 0..<batch.count where hit[i] {
          out[i] = true
          remaining[i] = false
        }
        if !remaining.contains(true) { break }
      }
    case .not(let child):
      let hit = try evaluate(child, &batch, active, &ctx)
      for i in 0..<batch.count { out[i] = active[i] && !hit[i] }
    case .object(let p):
      return try perObject(p, &batch, active, &ctx)
    case .text(let p):
      guard let keys = try p.indexKeys(&ctx) else { return try perObject(p, &batch, active, &ctx) }
      for i in 0..<batch.count where active[i] { out[i] = keys.contains(batch.batch.key(i)) }
    case .dictionaryKeys(let p, let property, let constant):
      guard let column = try batch.column(property) else { return try perObject(p, &batch, active, &ctx) }
      return Self.dictionaryKeys(p, column, constant, active)
    }
    return out
  }

  /// Realm's `dict.@keys` comparison over one cluster, object after object: an object whose
  /// dictionary was never created leaves Realm's buffer of keys as it was
  /// (`ColumnDictionaryKeys::evaluate` writes nothing for it), so it is compared with the keys
  /// of the object before it, or with one null when its search started there: at the
  /// cluster's first object and after every match (`Compare::find_first` starts with a
  /// fresh buffer each time it is called). An emptied dictionary reads as one never created.
  static func dictionaryKeys(_ p: ComparePredicate, _ column: ColumnValues, _ constant: ValueGroup, _ active: [Bool]) -> [Bool] {
    var out = [Bool](repeating: false, count: active.count)
    var buffer: ValueGroup?
    for i in 0..<active.count where active[i] {
      if case .dictionary(let entries) = column.value(at: i), !entries.isEmpty {
        buffer = ValueGroup(entries.map { .string($0.key) }, fromList: true)
      } else if buffer == nil {
        buffer = ValueGroup([.null], fromList: false)
      }
      out[i] = p.matches(lefts: [buffer!], rights: [constant])
      if out[i] { buffer = nil }
    }
    return out
  }

  /// Strings, ints, floats, doubles and dates of a property compared with a constant in
  /// one loop over the leaf: what ``ColumnPredicate/matches(_:)`` gives for each value.
  /// False when the leaf is not of the condition's kind (the caller decodes the values).
  static func leafLoop(_ p: ColumnPredicate, _ leaf: LeafColumn, _ active: [Bool], _ out: inout [Bool]) throws -> Bool {
    switch (p.kind, leaf.kind) {
    case (.string, .string):
      if let scan = p.leafScan {
        try scan.select(leaf, active, &out)
      } else {
        try leaf.forEachString(active) { i, utf8 in out[i] = p.stringMatches(utf8) }
      }
    case (.int, .int):
      leaf.forEachInt(active) { i, x in out[i] = p.matchesInt(x) }
    case (.double, .double), (.float, .float):
      leaf.forEachDouble(active) { i, x in out[i] = p.matchesDouble(x) }
    case (.timestamp, .timestamp):
      leaf.forEachTimestamp(active) { i, x in out[i] = p.matchesTimestamp(x) }
    default:
      return false
    }
    return true
  }

  /// `p` on each active object, with its values.
  private func perObject(_ p: any QueryPredicate, _ batch: inout DecodedColumns, _ active: [Bool], _ ctx: inout QueryContext) throws -> [Bool] {
    var out = [Bool](repeating: false, count: batch.count)
    let width = ctx.schema.classes[classIndex].properties.count
    for i in 0..<batch.count where active[i] {
      let values = try batch.values(at: i, width: width)
      out[i] = try p.matches(QueryObject(classIndex: classIndex, key: batch.batch.key(i), values: values), &ctx)
    }
    return out
  }
}

extension QueryBatchFilter.Node {
  /// True for a condition evaluated object by object.
  var isPerObject: Bool {
    switch self {
    case .object, .dictionaryKeys: return true
    case .and(let c), .or(let c): return c.contains { $0.isPerObject }
    case .not(let c): return c.isPerObject
    default: return false
    }
  }
}
