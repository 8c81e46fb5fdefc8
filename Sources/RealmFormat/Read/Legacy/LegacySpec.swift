/// The spec of a table in file formats 2-9: column types, names and attributes, the entries
/// that give link targets and subtable specs, and enumerated-string keys
/// (realm-legacy-format.md §4.2-§4.5, §7.2).
///
/// Corresponds to `realm::Spec` of Realm Core 5. Subtable specs nest (§7.6); their depth is
/// bounded by ``Limits/maxDepth``.
final class LegacySpec: Sendable {
  /// One column of the spec, in spec order (public columns first, then backlinks).
  struct Column: Sendable {
    /// The stored type (`ColumnType` numbers 0-14; 11 never occurs).
    var type: ColumnType
    /// The stored name; nil for backlink columns, which have none.
    var name: String?
    /// The raw attribute bits (1 Indexed, 2 Unique, 8 StrongLinks, 16 Nullable).
    var attributes: Int64
    /// Position of the column's root ref in the columns array (§4.4).
    var refPosition: Int
    /// Position of its search index ref, nil when the column is not indexed.
    var indexPosition: Int?
    /// Links, link lists: the target table; backlinks: the origin table (group positions).
    var table: Int?
    /// Backlinks: the spec index of the origin link column.
    var originColumn: Int?
    /// Subtables: the subtable's spec.
    var subspec: LegacySpec?
    /// Enumerated strings: the root of the string B+-tree of distinct values.
    var enumKeys: Ref = .null

    var isNullable: Bool { attributes & 16 != 0 }
    var isIndexed: Bool { attributes & 1 != 0 }
  }

  /// The spec node.
  let ref: Ref
  /// The columns in spec order.
  let columns: [Column]
  /// Number of public (non-backlink) columns.
  let publicCount: Int
  /// The number of refs the columns array must hold: one per column, two for indexed ones.
  let columnsArraySize: Int

  /// Decodes the spec at `ref`; `depth` counts the subtable levels above it.
  init(reader: ByteReader, ref: Ref, depth: Int = 0, limits: Limits) throws(FormatError) {
    guard depth <= limits.maxDepth else {
      throw FormatError.limit("subtable specs nest deeper than \(limits.maxDepth) levels", at: ref.rawValue)
    }
    let spec = try ArrayNode(elements: reader, ref)
    guard spec.hasRefs, (3...5).contains(spec.count) else {
      throw FormatError.corrupt("the spec at \(ref) has \(spec.count) slots, expected 3 to 5 (file formats 2-9)", at: ref.rawValue)
    }
    let (types, names, attrs) = try spec.specColumns(attributesName: "the spec attribute array")
    let n = types.count
    let subspecs = try spec.optionalChild(3)
    if let subspecs, !subspecs.hasRefs { throw FormatError.corrupt("the subspec array at \(subspecs.ref) has no refs", at: subspecs.ref.rawValue) }
    let enumKeys = try spec.optionalChild(4)
    if let enumKeys, !enumKeys.hasRefs { throw FormatError.corrupt("the enum key array at \(enumKeys.ref) has no refs", at: enumKeys.ref.rawValue) }

    var columns: [Column] = []
    columns.reserveCapacity(n)
    var subspecIndex = 0
    var enumIndex = 0
    var position = 0
    var publicCount = 0
    func subspecEntry() throws(FormatError) -> RefOrTagged {
      guard let subspecs, subspecIndex < subspecs.count else {
        throw FormatError.corrupt("the spec at \(ref) has fewer subspec entries than its columns need", at: ref.rawValue)
      }
      defer { subspecIndex += 1 }
      return RefOrTagged(raw: subspecs.uncheckedGet(subspecIndex))
    }
    func taggedEntry(_ what: String) throws(FormatError) -> Int {
      guard case .tagged(let v) = try subspecEntry(), v < 1 << 24 else {
        throw FormatError.corrupt("the spec at \(ref) has a subspec entry that is not a \(what)", at: ref.rawValue)
      }
      return Int(v)
    }
    for i in 0..<n {
      let raw = types.uncheckedGet(i)
      guard let type = ColumnType(rawValue: Int(truncatingIfNeeded: raw)), raw <= 14, type != .decimal else {
        throw FormatError.corrupt("column \(i) of the spec at \(ref) has type \(raw), not a type of file formats 2-9", at: types.ref.rawValue)
      }
      let attributes = attrs.uncheckedGet(i)
      var column = Column(type: type, name: nil, attributes: attributes, refPosition: position)
      position += 1
      if column.isIndexed {
        column.indexPosition = position
        position += 1
      }
      if type == .backlink {
        column.table = try taggedEntry("table index")
        column.originColumn = try taggedEntry("column index")
      } else {
        // §4.2: backlink columns follow every public column.
        guard publicCount == i else {
          throw FormatError.corrupt("column \(i) of the spec at \(ref) follows a backlink column", at: types.ref.rawValue)
        }
        publicCount += 1
        guard i < names.count else {
          throw FormatError.corrupt("the spec at \(ref) has \(names.count) names for more public columns", at: ref.rawValue)
        }
        column.name = try names.string(i) ?? ""
        switch type {
        case .link, .linkList: column.table = try taggedEntry("table index")
        case .oldTable:
          guard case .ref(let sub) = try subspecEntry() else {
            throw FormatError.corrupt("subtable column \(i) of the spec at \(ref) has no subtable spec", at: ref.rawValue)
          }
          column.subspec = try LegacySpec(reader: reader, ref: sub, depth: depth + 1, limits: limits)
        case .oldStringEnum:
          guard let enumKeys, enumIndex < enumKeys.count, case .ref(let keys) = RefOrTagged(raw: enumKeys.uncheckedGet(enumIndex)) else {
            throw FormatError.corrupt("enumerated string column \(i) of the spec at \(ref) has no keys", at: ref.rawValue)
          }
          column.enumKeys = keys
          enumIndex += 1
        default: break
        }
      }
      columns.append(column)
    }
    guard names.count == publicCount else {
      throw FormatError.corrupt("the spec at \(ref) has \(names.count) names for \(publicCount) public columns", at: ref.rawValue)
    }
    self.ref = ref
    self.columns = columns
    self.publicCount = publicCount
    columnsArraySize = position
  }
}
