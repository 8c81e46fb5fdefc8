import RealmModel
/// What one column of a legacy table holds, as Realm's upgrade turns it into values
/// (realm-legacy-format.md §6, §7, §10.3-§10.6).
indirect enum LegacyValueKind: Sendable {
  case int(nullable: Bool)
  case bool(nullable: Bool)
  /// `OldDateTime` (formats 2-4): seconds; Realm Core 5 makes it a date with 0 ns (§7.1).
  case dateTime(nullable: Bool)
  case float(nullable: Bool)
  case double(nullable: Bool)
  case string(nullable: Bool)
  case binary(nullable: Bool)
  /// `[seconds, nanoseconds]`, two B+-trees (§6.7).
  case timestamp
  /// Indexes into the string B+-tree of distinct values at `keys` (§7.2).
  case enumerated(keys: Ref, nullable: Bool)
  /// `row + 1`, 0 = null (§7.3).
  case link(LegacyLinkTarget)
  /// Per row 0 or a ref to a B+-tree of target rows (§7.4).
  case linkList(LegacyLinkTarget)
  /// A subtable column read as a list of its first column's values (§7.6).
  case list(LegacyValueKind)
  /// Old mixed values: Realm's upgrade does not copy them, every value becomes null (§7.7).
  case mixed

  /// How the leaves of the column's main B+-tree are read (the seconds, for timestamps).
  var leafKind: LegacyLeafKind {
    switch self {
    case .int(let n), .bool(let n), .dateTime(let n): return .ints(nullable: n)
    case .float(let n): return .floats(double: false, nullable: n)
    case .double(let n): return .floats(double: true, nullable: n)
    case .string(let n): return .strings(nullable: n)
    case .binary(let n): return .binaries(nullable: n)
    case .timestamp: return .ints(nullable: true)
    case .enumerated, .link: return .ints(nullable: false)
    case .linkList, .list: return .refs
    case .mixed: return .ints(nullable: false)
    }
  }
}

/// The table a legacy link points into.
struct LegacyLinkTarget: Sendable {
  /// The target table's position in the group's table arrays (its key).
  var table: Int
  /// The name links show (the class name, or the table name).
  var name: String
}

/// What every scan of one pass shares: the bytes, the limits and the work budget.
struct LegacyReadContext {
  let reader: ByteReader
  let limits: Limits
  let budget: DecodeBudget
}

/// Produces the values of one legacy column row after row, decoding a leaf at a time and
/// each leaf's values in tight loops (formats 2-9 keep one B+-tree per column, §4.4).
struct LegacyColumnScan {
  private let kind: LegacyValueKind
  private let context: LegacyReadContext
  /// The column's B+-tree (the seconds of timestamps); nil for mixed columns.
  private var main: LegacyLeafStream?
  /// The nanoseconds of a timestamp column.
  private var nanoseconds: LegacyLeafStream?
  /// The distinct values of an enumerated string column.
  private var enumKeys: [RealmValue] = []
  /// What each of ``enumKeys`` costs the read budget (see ``ReadBudget``).
  private var enumKeyCosts: [Int] = []

  /// A scan of the column at `root` holding `kind`, positioned at row `start`.
  init(kind: LegacyValueKind, root: Ref, startingAt start: Int = 0, context: LegacyReadContext) throws(FormatError) {
    self.kind = kind
    self.context = context
    let reader = context.reader
    switch kind {
    case .mixed:
      // The values are not read (Realm's upgrade drops them), but the types B+-tree is walked
      // so that the rows really exist.
      let (types, _) = try LegacyColumnScan.pair(root, reader: reader, names: "[types, data]")
      main = try stream(types, .ints(nullable: false), start)
    case .timestamp:
      let (seconds, nanos) = try LegacyColumnScan.pair(root, reader: reader, names: "[seconds, nanoseconds]")
      main = try stream(seconds, .ints(nullable: true), start)
      nanoseconds = try stream(nanos, .ints(nullable: false), start)
    case .enumerated(let keys, let nullable):
      var stream = try LegacyLeafStream(
        reader: reader, root: keys, kind: .strings(nullable: nullable), limits: context.limits, budget: context.budget)
      var values: [RealmValue] = []
      try stream.takeAll(limit: context.limits.maxCollectionCount) { (leaf, range) throws(FormatError) in
        try LegacyColumnScan.appendStrings(leaf, range, binary: false, budget: context.budget, into: &values)
      }
      enumKeys = values
      enumKeyCosts = values.map { v in
        if case .string(let s) = v { return ReadBudget.cost(ofPayloadBytes: s.utf8.count) }
        return 1
      }
      fallthrough
    default:
      main = try stream(root, kind.leafKind, start)
    }
  }

  /// A stream over the tree at `root`, sharing the scan's limits and budget.
  private func stream(_ root: Ref, _ kind: LegacyLeafKind, _ start: Int) throws(FormatError) -> LegacyLeafStream {
    try LegacyLeafStream(reader: context.reader, root: root, kind: kind, startingAt: start, limits: context.limits, budget: context.budget)
  }

  /// The first two refs of a column's top array (timestamps, old mixed values).
  static func pair(_ root: Ref, reader: ByteReader, names: String) throws(FormatError) -> (Ref, Ref) {
    let top = try ArrayNode(elements: reader, root)
    guard top.hasRefs, top.count >= 2, !top.isInner else {
      throw FormatError.corrupt("the column at \(root) is not a \(names) array", at: root.rawValue)
    }
    return (try top.child(0).ref, try top.child(1).ref)
  }

  /// Appends the values of the next `n` rows to `out`.
  mutating func append(_ n: Int, into out: inout [RealmValue]) throws(FormatError) {
    switch kind {
    case .mixed:
      let budget = context.budget
      try main!.take(n) { (_, range) throws(FormatError) in
        try budget.spend(range.count)
        for _ in range { out.append(.null) }
      }
    case .timestamp:
      try context.budget.spend(n)
      var seconds: [Int64?] = []
      seconds.reserveCapacity(n)
      try main!.take(n) { (leaf, range) throws(FormatError) in
        guard case .ints(let l) = leaf else { return }
        for i in range { seconds.append(l.value(i)) }
      }
      var row = 0
      try nanoseconds!.take(n) { (leaf, range) throws(FormatError) in
        guard case .ints(let l) = leaf else { return }
        for i in range {
          if let s = seconds[row] {
            out.append(.date(Timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: l.value(i) ?? 0))))
          } else {
            out.append(.null)
          }
          row += 1
        }
      }
    default:
      let kind = self.kind
      let keys = enumKeys
      let keyCosts = enumKeyCosts
      let context = self.context
      try main!.take(n) { (leaf, range) throws(FormatError) in
        try LegacyColumnScan.append(leaf, range, kind: kind, enumKeys: keys, enumKeyCosts: keyCosts, context: context, into: &out)
      }
    }
  }

  /// Appends the values of `range` of one leaf.
  private static func append(
    _ leaf: LegacyLeaf, _ range: Range<Int>, kind: LegacyValueKind, enumKeys: [RealmValue], enumKeyCosts: [Int],
    context: LegacyReadContext, into out: inout [RealmValue]
  ) throws(FormatError) {
    // Every value costs the read budget (``ReadBudget``): 1 for fixed-size values here, text
    // and data by their length where they are read, links by their target's name, lists by
    // their elements (a value per element, as the current-format reader charges them).
    let budget = context.budget
    switch (kind, leaf) {
    case (.int, _), (.bool, _), (.dateTime, _), (.float, _), (.double, _), (.linkList, _), (.list, _):
      try budget.spend(range.count)
    case (.link(let target), _):
      try budget.spend(range.count &* ReadBudget.cost(ofPayloadBytes: target.name.utf8.count))
    default:
      break
    }
    switch (kind, leaf) {
    case (.int, .ints(let l)):
      for i in range { out.append(l.value(i).map { .int($0) } ?? .null) }
    case (.bool, .ints(let l)):
      for i in range { out.append(l.value(i).map { .bool($0 != 0) } ?? .null) }
    case (.dateTime, .ints(let l)):
      for i in range { out.append(l.value(i).map { .date(Timestamp(seconds: $0, nanoseconds: 0)) } ?? .null) }
    case (.float, .floats(let l)), (.double, .floats(let l)):
      for i in range { out.append(l.value(i)) }
    case (.string, .strings):
      try appendStrings(leaf, range, binary: false, budget: budget, into: &out)
    case (.binary, .strings):
      try appendStrings(leaf, range, binary: true, budget: budget, into: &out)
    case (.enumerated, .ints(let l)):
      for i in range {
        let v = l.value(i) ?? -1
        guard v >= 0, v < Int64(enumKeys.count) else {
          throw FormatError.corrupt("enumerated string index \(v) is outside the \(enumKeys.count) values", at: l.node.ref.rawValue)
        }
        try budget.spend(enumKeyCosts[Int(v)])
        out.append(enumKeys[Int(v)])
      }
    case (.link(let target), .ints(let l)):
      for i in range {
        let v = l.value(i) ?? 0
        if v == 0 {
          out.append(.null)
        } else {
          guard v > 0 else { throw FormatError.corrupt("link value \(v) at \(l.node.ref) is negative", at: l.node.ref.rawValue) }
          out.append(.link(ObjectLink(className: target.name, key: v &- 1)))
        }
      }
    case (.linkList(let target), .refs(let node)):
      for i in range {
        out.append(.list(try linkList(node.uncheckedGet(i), target: target, context: context)))
      }
    case (.list(let element), .refs(let node)):
      for i in range {
        out.append(.list(try list(node.uncheckedGet(i), element: element, context: context)))
      }
    default:
      throw FormatError.corrupt("a column leaf does not match its column type")
    }
  }

  /// Appends strings or binaries; null in a column that is not nullable reads as empty.
  static func appendStrings(
    _ leaf: LegacyLeaf, _ range: Range<Int>, binary: Bool, budget: DecodeBudget, into out: inout [RealmValue]
  ) throws(FormatError) {
    guard case .strings(let l, let nullable) = leaf else { return }
    for i in range {
      let bytes = try l.bytes(i)
      try budget.spend(ReadBudget.cost(ofPayloadBytes: bytes?.count ?? 0))
      if let b = bytes {
        out.append(binary ? .data(Array(b)) : .string(String(decoding: b, as: UTF8.self)))
      } else if nullable {
        out.append(.null)
      } else {
        out.append(binary ? .data([]) : .string(""))
      }
    }
  }

  /// The links of one link-list cell: 0 = empty, else a ref to a B+-tree of target rows.
  private static func linkList(_ raw: Int64, target: LegacyLinkTarget, context: LegacyReadContext) throws(FormatError) -> [RealmValue] {
    guard case .ref(let root) = RefOrTagged(raw: raw) else {
      if raw == 0 { return [] }
      throw FormatError.corrupt("a link-list cell holds the tagged value \(raw), not a ref")
    }
    var stream = try LegacyLeafStream(
      reader: context.reader, root: root, kind: .ints(nullable: false), limits: context.limits, budget: context.budget)
    var links: [RealmValue] = []
    let linkCost = ReadBudget.cost(ofPayloadBytes: target.name.utf8.count)
    try stream.takeAll(limit: context.limits.maxCollectionCount) { (leaf, range) throws(FormatError) in
      guard case .ints(let l) = leaf else { return }
      try context.budget.spend(range.count &* linkCost)
      for i in range {
        let row = l.value(i) ?? -1
        guard row >= 0 else { throw FormatError.corrupt("link list at \(root) holds the row \(row)", at: root.rawValue) }
        links.append(.link(ObjectLink(className: target.name, key: row)))
      }
    }
    return links
  }

  /// The elements of one subtable cell read as a list: 0 = empty, else a ref to the
  /// subtable's columns array, whose first column holds the elements (§7.6, `copy_list`).
  private static func list(_ raw: Int64, element: LegacyValueKind, context: LegacyReadContext) throws(FormatError) -> [RealmValue] {
    guard case .ref(let columnsRef) = RefOrTagged(raw: raw) else {
      if raw == 0 { return [] }
      throw FormatError.corrupt("a subtable cell holds the tagged value \(raw), not a ref")
    }
    let columns = try ArrayNode(elements: context.reader, columnsRef)
    guard columns.hasRefs else {
      throw FormatError.corrupt("subtable columns array at \(columnsRef) has no refs", at: columnsRef.rawValue)
    }
    guard columns.count > 0 else { return [] }
    let root = try columns.child(0).ref
    let n = try LegacyColumnScan.count(kind: element, root: root, reader: context.reader)
    guard n <= context.limits.maxCollectionCount else {
      throw FormatError.limit("a list has more than \(context.limits.maxCollectionCount) elements", at: root.rawValue)
    }
    var scan = try LegacyColumnScan(kind: element, root: root, context: context)
    var out: [RealmValue] = []
    out.reserveCapacity(min(n, 1 << 16))
    try scan.append(n, into: &out)
    return out
  }

  /// The number of rows of the column at `root` holding `kind`, from its root alone.
  static func count(kind: LegacyValueKind, root: Ref, reader: ByteReader) throws(FormatError) -> Int {
    switch kind {
    case .timestamp:
      let (seconds, _) = try pair(root, reader: reader, names: "[seconds, nanoseconds]")
      return try LegacyTreeSize.count(reader: reader, root: seconds, kind: .ints(nullable: true))
    case .mixed:
      // [types, data, ...]: the types B+-tree has one entry per row.
      let (types, _) = try pair(root, reader: reader, names: "[types, data]")
      return try LegacyTreeSize.count(reader: reader, root: types, kind: .ints(nullable: false))
    default:
      return try LegacyTreeSize.count(reader: reader, root: root, kind: kind.leafKind)
    }
  }
}
