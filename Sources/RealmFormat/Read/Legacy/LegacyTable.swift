import RealmModel
/// A table of a file in formats 2-9 as it is stored: a 2-slot top array `[spec, columns]`,
/// one B+-tree per column, rows addressed by index (realm-legacy-format.md §4).
///
/// Corresponds to `realm::Table` of Realm Core 5. What Realm's upgrade makes of it (names,
/// types, keys) is decided by ``LegacyGroupLayout``.
struct LegacyTable: Sendable {
  /// One public property of the upgraded table: where its values come from.
  struct Property: Sendable {
    /// The spec column.
    var specIndex: Int
    /// How its values are read.
    var kind: LegacyValueKind
  }

  /// Position in the group's table arrays (the table's identity in links, §3).
  let index: Int
  /// The table name.
  let name: String
  /// The table top array.
  let topRef: Ref
  /// The spec.
  let spec: LegacySpec
  /// The columns array (table slot 1).
  let columnsRef: Ref
  /// Per spec column: the root of its B+-tree.
  let roots: [Ref]
  /// Per spec column: the root of its search index, or ``Ref/null``.
  let indexRoots: [Ref]
  /// Number of rows: the size of column 0 (§4.4); 0 without columns.
  let rowCount: Int
  /// The properties of the upgraded table, in the order of its public columns.
  var properties: [Property] = []

  /// Reads the table whose top array is at `ref`.
  ///
  /// - Throws: `unsupportedVersion` for a table of Realm Core 6 or later inside a format-9 file
  ///   (an interrupted upgrade, §8.2); `corrupt` for damage.
  init(reader: ByteReader, ref: Ref, index: Int, name: String, limits: Limits) throws(FormatError) {
    let top = try ArrayNode(elements: reader, ref)
    guard top.hasRefs else { throw FormatError.corrupt("table '\(name)' has a top array without refs", at: ref.rawValue) }
    if top.count >= 12 {
      throw FormatError(
        .unsupportedVersion, offset: ref.rawValue,
        "table '\(name)' was already converted by Realm Core 6 or later although the file says format 9 (an upgrade to format 10 was interrupted); realmctl cannot read such a half-converted file; a Realm SDK of 2020 to 2023 (Realm Core 6 to 13) finishes the upgrade when it opens it")
    }
    guard top.count == 2 else {
      throw FormatError.corrupt("table '\(name)' has a top array of \(top.count) slots, expected 2 (file formats 2-9)", at: ref.rawValue)
    }
    self.index = index
    self.name = name
    topRef = ref
    spec = try LegacySpec(reader: reader, ref: try top.element(0).ref, limits: limits)
    let columns = try top.element(1)
    columnsRef = columns.ref
    (roots, indexRoots) = try LegacyTable.columnRoots(columns, spec: spec, what: "table '\(name)'")
    rowCount = try spec.columns.isEmpty ? 0 : LegacyTable.size(of: spec.columns[0], root: roots[0], reader: reader)
  }

  /// The column and index roots of a columns array (§4.4).
  static func columnRoots(_ columns: ArrayNode, spec: LegacySpec, what: String) throws(FormatError) -> (roots: [Ref], indexes: [Ref]) {
    guard columns.hasRefs, !columns.isInner, columns.count == spec.columnsArraySize else {
      throw FormatError.corrupt(
        "the columns array of \(what) has \(columns.count) refs, its spec needs \(spec.columnsArraySize)", at: columns.ref.rawValue)
    }
    var roots: [Ref] = []
    var indexes: [Ref] = []
    roots.reserveCapacity(spec.columns.count)
    indexes.reserveCapacity(spec.columns.count)
    for (i, column) in spec.columns.enumerated() {
      let root = try columns.ref(column.refPosition)
      guard !root.isNull else {
        throw FormatError.corrupt("column \(i) of \(what) has no B+-tree", at: columns.ref.rawValue)
      }
      roots.append(root)
      indexes.append(try column.indexPosition.map { p throws(FormatError) in try columns.ref(p) } ?? .null)
    }
    return (roots, indexes)
  }

  /// The number of elements of a stored column, from its root (Realm Core 5's
  /// `ColumnBase::get_size_from_type_and_ref`).
  static func size(of column: LegacySpec.Column, root: Ref, reader: ByteReader) throws(FormatError) -> Int {
    try LegacyColumnScan.count(kind: storedKind(column), root: root, reader: reader)
  }

  /// A value kind that reads the stored column as it is, for sizes and checks (links read as
  /// integers, subtables as refs).
  static func storedKind(_ column: LegacySpec.Column) -> LegacyValueKind {
    let nullable = column.isNullable
    switch column.type {
    case .int, .link: return .int(nullable: nullable && column.type == .int)
    case .bool: return .bool(nullable: nullable)
    case .oldDateTime: return .dateTime(nullable: nullable)
    case .float: return .float(nullable: nullable)
    case .double: return .double(nullable: nullable)
    case .string: return .string(nullable: nullable)
    case .binary: return .binary(nullable: nullable)
    case .timestamp: return .timestamp
    case .mixed: return .mixed
    case .oldStringEnum: return .int(nullable: false)
    case .linkList, .backlink, .oldTable: return .list(.int(nullable: false))
    default: return .int(nullable: false)
    }
  }
}
