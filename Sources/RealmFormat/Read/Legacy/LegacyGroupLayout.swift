import RealmModel
/// The tables of a file in formats 2-9 as Realm shows them after upgrading the file
/// (Realm Core 5 -> 11 -> 14; realm-legacy-format.md §9, §10):
///
/// - the `pk` table is not a table any more: its rows name the primary key of each class;
/// - a table keeps its position in the group as its key; an object's key is its row index;
/// - empty column names become `col_<i>`, repeated ones `<name>_<i>`; links become optional,
///   link lists lists; a subtable column becomes a list of its first column's type; an
///   enumerated string column a string column; old DateTimes dates; old mixed values null;
/// - backlink columns stay backlinks (for `open --check`), `!OID` columns of sync-era files
///   are dropped.
///
/// Every decision is Realm Core 11's (`Transaction::upgrade_file_format`,
/// `Spec::convert_column_attributes`, `Table::migrate_objects`, `finalize_migration`); where
/// Realm stops with an assertion, the file is refused with a message saying so.
struct LegacyGroupLayout: Sendable {
  /// Every stored table, by group position (the `pk` table included).
  let stored: [LegacyTable]
  /// The tables Realm shows (every table but `pk`), in group order.
  let tables: [Table]
  /// Positions of the `pk` table, when the file has one.
  let primaryKeyTable: Int?

  /// Reads every table of the group arrays (names and top refs, in group order).
  init(reader: ByteReader, names: [String], refs: [Ref], fileFormat: Int, limits: Limits) throws(FormatError) {
    var stored: [LegacyTable] = []
    stored.reserveCapacity(refs.count)
    for (i, ref) in refs.enumerated() {
      stored.append(try LegacyTable(reader: reader, ref: ref, index: i, name: names[i], limits: limits))
    }
    let pkIndex = stored.firstIndex { $0.name == LegacyGroupLayout.primaryKeyTableName }
    let primaryKeys = try pkIndex.map { i throws(FormatError) in
      try LegacyGroupLayout.primaryKeys(stored[i], tables: stored, reader: reader, limits: limits)
    } ?? [:]
    var tables: [Table] = []
    for i in stored.indices where i != pkIndex {
      let (table, properties) = try LegacyGroupLayout.table(
        stored[i], tables: stored, primaryKey: primaryKeys[i], fileFormat: fileFormat)
      stored[i].properties = properties
      var t = table
      t.storage = .legacy(stored[i])
      tables.append(t)
    }
    self.stored = stored
    self.tables = tables
    primaryKeyTable = pkIndex
  }

  /// The Object Store's primary-key table (§9.3).
  static let primaryKeyTableName = "pk"

  // MARK: - Tables and columns

  /// The upgraded table and where each of its public columns comes from.
  private static func table(
    _ stored: LegacyTable, tables: [LegacyTable], primaryKey: String?, fileFormat: Int
  ) throws(FormatError) -> (Table, [LegacyTable.Property]) {
    let spec = stored.spec
    let names = upgradedNames(spec)
    var columns: [Column] = []
    var properties: [LegacyTable.Property] = []
    for (i, c) in spec.columns.enumerated() where c.type != .backlink {
      if c.name == "!OID" { continue }  // `finalize_migration` removes it (sync-era files)
      var (type, attributes, kind) = try converted(c, in: stored, tables: tables, fileFormat: fileFormat)
      if c.isIndexed && kind.isSingle { attributes.insert(.indexed) }
      var column = Column(
        name: names[i], key: ColKey(leafIndex: i, type: type, attributes: attributes, tag: 0), type: type,
        attributes: attributes, specIndex: i, searchIndexRef: stored.indexRoots[i])
      if let target = c.table {
        column.oppositeTableKey = Int64(target)
        if let backlink = tables[target].spec.columns.firstIndex(where: {
          $0.type == .backlink && $0.table == stored.index && $0.originColumn == i
        }) {
          column.oppositeColumnKey = ColKey(leafIndex: backlink, type: .backlink, attributes: [], tag: 0)
        }
      }
      columns.append(column)
      properties.append(LegacyTable.Property(specIndex: i, kind: kind))
    }
    for (i, c) in spec.columns.enumerated() where c.type == .backlink {
      guard let origin = c.table, let originColumn = c.originColumn, origin < tables.count,
        originColumn < tables[origin].spec.columns.count
      else {
        throw FormatError.corrupt("backlink column \(i) of table '\(stored.name)' names an origin that does not exist", at: spec.ref.rawValue)
      }
      let originType = tables[origin].spec.columns[originColumn].type
      columns.append(
        Column(
          name: "", key: ColKey(leafIndex: i, type: .backlink, attributes: [], tag: 0), type: .backlink, attributes: [],
          specIndex: i, oppositeTableKey: Int64(origin),
          oppositeColumnKey: ColKey(leafIndex: originColumn, type: originType == .linkList ? .linkList : .link, attributes: [], tag: 0)))
    }
    var pk: ColKey?
    if let primaryKey, let column = columns.first(where: { !$0.isBacklink && $0.name == primaryKey }) {
      guard column.collectionKind == .single, column.type == .int || column.type == .string else {
        throw FormatError(
          .unsupportedVersion,
          "the primary key '\(primaryKey)' of table '\(stored.name)' is a \(column.type) column; Realm's upgrade accepts only int and string primary keys")
      }
      pk = column.key
    }
    let table = Table(
      name: stored.name, slot: stored.index, key: Int64(stored.index), type: .topLevel, primaryKey: pk, columns: columns,
      objectCount: stored.rowCount, tombstoneCount: 0, ref: stored.topRef, clusterRoot: .null, tombstoneRoot: .null,
      storage: .clusters)
    return (table, properties)
  }

  /// Column names after `Spec::convert_column_attributes`: an empty name becomes `col_<i>`, a
  /// name already used by an earlier column (after its own renaming) `<name>_<i>`.
  static func upgradedNames(_ spec: LegacySpec) -> [String] {
    upgradedNames(spec.columns.prefix(spec.publicCount).map { $0.name ?? "" })
  }

  /// ``upgradedNames(_:)-(LegacySpec)`` for the public column names `stored`.
  static func upgradedNames(_ stored: [String]) -> [String] {
    var names = stored
    for i in names.indices {
      if names[i].isEmpty {
        names[i] = "col_\(i)"
      } else if names.prefix(i).contains(names[i]) {
        names[i] = "\(names[i])_\(i)"
      }
    }
    return names
  }

  /// The column type, attributes and value kind Realm's upgrade gives a stored column.
  private static func converted(
    _ c: LegacySpec.Column, in table: LegacyTable, tables: [LegacyTable], fileFormat: Int
  ) throws(FormatError) -> (ColumnType, ColumnAttributes, LegacyValueKind) {
    let nullable = c.isNullable
    let attributes: ColumnAttributes = nullable ? [.nullable] : []
    func target() throws(FormatError) -> LegacyLinkTarget {
      guard let t = c.table, t < tables.count else {
        throw FormatError.corrupt("link column '\(c.name ?? "")' of table '\(table.name)' links to table \(c.table ?? -1), which does not exist", at: table.spec.ref.rawValue)
      }
      return LegacyLinkTarget(table: t, name: linkName(tables[t].name))
    }
    switch c.type {
    case .int: return (.int, attributes, .int(nullable: nullable))
    case .bool: return (.bool, attributes, .bool(nullable: nullable))
    case .string: return (.string, attributes, .string(nullable: nullable))
    case .oldStringEnum: return (.string, attributes, .enumerated(keys: c.enumKeys, nullable: nullable))
    case .binary: return (.binary, attributes, .binary(nullable: nullable))
    case .timestamp: return (.timestamp, attributes, .timestamp)
    case .float: return (.float, attributes, .float(nullable: nullable))
    case .double: return (.double, attributes, .double(nullable: nullable))
    case .mixed: return (.mixed, attributes, .mixed)
    case .link: return (.link, [.nullable], .link(try target()))
    case .linkList: return (.linkList, [.list], .linkList(try target()))
    case .oldDateTime:
      // Realm Core 5 converts DateTime columns of formats 2-4; Core 11 stops on any other.
      guard fileFormat <= 4 else {
        throw refusal("column '\(c.name ?? "")' of table '\(table.name)' has the DateTime type of file formats 2-4 in a format-\(fileFormat) file")
      }
      return (.timestamp, attributes, .dateTime(nullable: nullable))
    case .oldTable:
      // A list of the subtable's first column, whose attributes join the column's (§7.6).
      guard let sub = c.subspec, let first = sub.columns.first else {
        return (.int, [.list], .list(.int(nullable: false)))
      }
      let elementNullable = nullable || first.isNullable
      let elementAttributes: ColumnAttributes = elementNullable ? [.list, .nullable] : [.list]
      let element: LegacyValueKind
      let type: ColumnType
      switch first.type {
      case .int: (type, element) = (.int, .int(nullable: elementNullable))
      case .bool: (type, element) = (.bool, .bool(nullable: elementNullable))
      case .string: (type, element) = (.string, .string(nullable: elementNullable))
      case .binary: (type, element) = (.binary, .binary(nullable: elementNullable))
      case .timestamp: (type, element) = (.timestamp, .timestamp)
      case .float: (type, element) = (.float, .float(nullable: elementNullable))
      case .double: (type, element) = (.double, .double(nullable: elementNullable))
      default:
        throw refusal("subtable column '\(c.name ?? "")' of table '\(table.name)' holds \(first.type) values, which Realm's upgrade cannot make a list of")
      }
      return (type, elementAttributes, .list(element))
    default:
      throw FormatError.corrupt("column '\(c.name ?? "")' of table '\(table.name)' has type \(c.type.rawValue)", at: table.spec.ref.rawValue)
    }
  }

  /// The name links to table `name` show: the class name, or the table name.
  static func linkName(_ name: String) -> String {
    name.hasPrefix(FormatConstants.classPrefix) ? String(name.dropFirst(FormatConstants.classPrefix.count)) : name
  }

  /// An error for a file Realm's own upgrade refuses or stops on.
  static func refusal(_ reason: String) -> FormatError {
    FormatError(.unsupportedVersion, "\(reason); Realm's upgrade cannot convert this file")
  }

  // MARK: - Primary keys

  /// The primary key property of each class table, by group position, from the `pk` table
  /// (`Group::get_primary_key_columns_from_pk_table`), after Realm Java's fix of its older
  /// forms (`migrate_pk_table`: a column index instead of a name, table names with `class_`).
  private static func primaryKeys(
    _ pk: LegacyTable, tables: [LegacyTable], reader: ByteReader, limits: Limits
  ) throws(FormatError) -> [Int: String] {
    let columns = pk.spec.columns
    guard let tableColumn = columns.firstIndex(where: { $0.name == "pk_table" }),
      let propertyColumn = columns.firstIndex(where: { $0.name == "pk_property" }),
      [.string, .oldStringEnum].contains(columns[tableColumn].type),
      [.string, .oldStringEnum, .int].contains(columns[propertyColumn].type)
    else {
      throw refusal("the 'pk' table does not have the string columns 'pk_table' and 'pk_property'")
    }
    let context = LegacyReadContext(reader: reader, limits: limits, budget: DecodeBudget(embeddedObjects: 0, nodes: reader.count / 8 + 1, reading: ReadBudget(fileSize: reader.count, limits: limits)))
    func values(_ i: Int) throws(FormatError) -> [RealmValue] {
      var kind = LegacyTable.storedKind(columns[i])
      if columns[i].type == .oldStringEnum { kind = .enumerated(keys: columns[i].enumKeys, nullable: columns[i].isNullable) }
      guard try LegacyColumnScan.count(kind: kind, root: pk.roots[i], reader: reader) == pk.rowCount else {
        throw FormatError.corrupt("the columns of the 'pk' table have different lengths", at: pk.topRef.rawValue)
      }
      var scan = try LegacyColumnScan(kind: kind, root: pk.roots[i], context: context)
      var out: [RealmValue] = []
      try scan.append(pk.rowCount, into: &out)
      return out
    }
    let tableNames = try values(tableColumn)
    let properties = try values(propertyColumn)
    var byName: [String: Int] = [:]
    for t in tables where byName[t.name] == nil { byName[t.name] = t.index }
    var keys: [Int: String] = [:]
    for (row, (tableName, property)) in zip(tableNames, properties).enumerated() {
      guard case .string(var name) = tableName else {
        throw refusal("row \(row) of the 'pk' table names no class")
      }
      var propertyName: String
      switch property {
      case .string(let s): propertyName = s
      case .int(let columnIndex):
        // Realm Java 0.80 and older: the column index in the class table.
        let columns = byName[name].map { tables[$0].spec.columns } ?? []
        guard columnIndex >= 0, columnIndex < Int64(columns.count) else { continue }
        propertyName = columns[Int(columnIndex)].name ?? ""
      default: propertyName = ""
      }
      // Realm Java 0.84 and older stored the table name, with its `class_` prefix.
      if name.hasPrefix(FormatConstants.classPrefix) { name.removeFirst(FormatConstants.classPrefix.count) }
      guard let index = byName[FormatConstants.classPrefix + name] else {
        throw refusal("the 'pk' table names class '\(name)', which has no table")
      }
      if keys[index] == nil { keys[index] = propertyName }  // the first row wins (`std::map::emplace`)
    }
    return keys
  }
}

extension LegacyValueKind {
  /// True for a single value per row (not a list).
  var isSingle: Bool {
    switch self {
    case .linkList, .list: return false
    default: return true
    }
  }
}
