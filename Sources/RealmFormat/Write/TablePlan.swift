import RealmModel
/// The layout decided for one table before any object is written: columns with their
/// ColKeys, spec attributes and link partners (§4.1-4.5, §4.8).
struct ColumnLayout {
  /// Property name; nil for backlink columns.
  var name: String?
  /// The property; nil for backlink columns.
  var property: Property?
  /// Storage type (link columns use 12 in format 24, §4.5).
  var type: ColumnType
  /// The full spec attribute mask (Indexed included).
  var attributes: ColumnAttributes
  /// The column key (leaf index = spec position, tag = table key).
  var colKey: ColKey
  /// Target table (links) or origin table (backlinks), as a table index.
  var oppositeTable: Int?
  /// Backlink column of a link, or link column of a backlink.
  var oppositeColumn: ColKey = .null
  /// True when a search index is built (primary key or Indexed).
  var hasIndex = false
  /// True when a full-text index is built (FullText_Indexed).
  var hasFullTextIndex = false

  /// The spec type entry: the column type, and for dictionaries the key type String (2) in
  /// bits 16 and up (§4.2).
  var specType: Int64 {
    Int64(type.rawValue) | (attributes.contains(.dictionary) ? Int64(2) << 16 : 0)
  }
}

/// One table of the file being built.
struct TablePlan {
  /// Table name (`class_<Name>` or `metadata`).
  var name: String
  /// The class, nil for `metadata`.
  var objectSchema: ObjectSchema?
  /// Table key = position in the group's table array (tag 0, §3.3).
  var key: Int
  /// Public columns in property order.
  var columns: [ColumnLayout]
  /// Backlink columns, after the public ones.
  var backlinks: [ColumnLayout] = []
  /// Index of the primary-key column in ``columns``.
  var primaryKey: Int?

  var isEmbedded: Bool { objectSchema?.isEmbedded ?? false }
  /// Tables without a primary key use squeezed keys (§4.9).
  var usesSqueezedKeys: Bool { primaryKey == nil }

  /// Adds a backlink column for `originColumn` of table `originTable` and returns its key.
  mutating func addBacklink(originTable: Int, originColumn: ColKey) -> ColKey {
    let leaf = columns.count + backlinks.count
    let colKey = ColKey(leafIndex: leaf, type: .backlink, attributes: [], tag: UInt32(key))
    backlinks.append(
      ColumnLayout(
        name: nil, property: nil, type: .backlink, attributes: [], colKey: colKey,
        oppositeTable: originTable, oppositeColumn: originColumn))
    return colKey
  }
}

extension TablePlan {
  /// The column type a property is stored as.
  static func columnType(_ type: PropertyType) -> ColumnType {
    switch type {
    case .int: return .int
    case .bool: return .bool
    case .string: return .string
    case .data: return .binary
    case .mixed: return .mixed
    case .date: return .timestamp
    case .float: return .float
    case .double: return .double
    case .decimal128: return .decimal
    case .object: return .link
    case .objectId: return .objectId
    case .uuid: return .uuid
    }
  }

  /// Why `format` cannot store property `p`, or nil (`WritableFileFormat.obstacle(for:)`).
  static func unsupportedReason(_ p: Property, format: WritableFileFormat) -> String? {
    format.obstacle(for: p)
  }

  /// Types a search index can be built on (§4.6).
  static func isIndexable(_ p: Property) -> Bool {
    p.collection == .single && [.int, .bool, .string, .date, .objectId, .uuid, .mixed].contains(p.type)
  }

  /// Plans every table: `metadata` first when a schema version is set, then the classes in
  /// unsigned byte order of their names, then `plainTables` (tables that are not classes,
  /// named by their `ObjectSchema.name` as is); backlink columns for every link property.
  static func plan(
    _ schema: Schema, plainTables: [ObjectSchema] = [], format: WritableFileFormat = .current
  ) throws(FormatError) -> [TablePlan] {
    var tables = [TablePlan]()
    if schema.schemaVersion != nil {
      let colKey = ColKey(leafIndex: 0, type: .int, attributes: [], tag: 0)
      tables.append(
        TablePlan(
          name: FormatConstants.metadataTable, objectSchema: nil, key: 0,
          columns: [ColumnLayout(name: "version", property: Property(name: "version", type: .int), type: .int, attributes: [], colKey: colKey)]))
    }
    let classes = schema.classes.sorted { SetOrdering.compareStrings($0.name, $1.name) < 0 }
    var names = Set<String>()
    for c in classes {
      guard names.insert(c.name).inserted else { throw FormatError.corrupt("the schema declares class '\(c.name)' twice") }
      let tableName = FormatConstants.classPrefix + c.name
      guard tableName.utf8.count <= 63 else {
        throw FormatError.corrupt("class name '\(c.name)' is longer than 57 bytes")
      }
      tables.append(try planClass(c, key: tables.count, format: format))
    }
    for c in plainTables {
      guard !c.name.hasPrefix(FormatConstants.classPrefix), c.name != FormatConstants.metadataTable, !c.name.isEmpty,
        c.name.utf8.count <= 63
      else {
        throw FormatError.corrupt("'\(c.name)' cannot be the name of a table that is not a class")
      }
      guard names.insert(c.name).inserted else {
        throw FormatError.corrupt("the table '\(c.name)' has the name of a class or of another table")
      }
      tables.append(try planClass(c, key: tables.count, tableName: c.name, format: format))
    }
    // Backlinks: one column in the target for every link property (§4.8).
    let index = Dictionary(uniqueKeysWithValues: tables.enumerated().compactMap { i, t in t.objectSchema.map { ($0.name, i) } })
    for t in tables.indices {
      for c in tables[t].columns.indices {
        guard let p = tables[t].columns[c].property, p.type == .object else { continue }
        guard let target = p.objectType, let ti = index[target] else {
          throw FormatError.corrupt("property '\(tables[t].objectSchema?.name ?? "").\(p.name)' links to class '\(p.objectType ?? "")', which is not in the schema")
        }
        let linkKey = tables[t].columns[c].colKey
        let backlinkKey = tables[ti].addBacklink(originTable: t, originColumn: linkKey)
        tables[t].columns[c].oppositeTable = ti
        tables[t].columns[c].oppositeColumn = backlinkKey
      }
    }
    return tables
  }

  private static func planClass(
    _ c: ObjectSchema, key: Int, tableName: String? = nil, format: WritableFileFormat
  ) throws(FormatError) -> TablePlan {
    var columns = [ColumnLayout]()
    var primaryKey: Int?
    var seen = Set<String>()
    for (i, p) in c.properties.enumerated() {
      guard seen.insert(p.name).inserted else { throw FormatError.corrupt("class '\(c.name)' declares property '\(p.name)' twice") }
      guard p.name.utf8.count <= 63 else { throw FormatError.corrupt("property name '\(p.name)' is longer than 63 bytes") }
      let isPrimary = c.primaryKey == p.name
      if isPrimary {
        guard !c.isEmbedded else { throw FormatError.corrupt("embedded class '\(c.name)' cannot have a primary key") }
        guard p.collection == .single, [.int, .string, .objectId, .uuid].contains(p.type) else {
          throw FormatError.corrupt("primary key '\(c.name).\(p.name)' must be an int, string, objectId or uuid")
        }
        primaryKey = i
      }
      if p.type == .object && p.objectType == nil {
        throw FormatError.corrupt("property '\(c.name).\(p.name)' is a link without a target class")
      }
      var attributes: ColumnAttributes = []
      let linkNullable = p.type == .object && (p.collection == .single || p.collection == .dictionary)
      // Mixed follows the schema too: SDK schemas declare it optional, while Realm's upgrade of
      // old files keeps the Nullable bit of a legacy mixed column as it was.
      if p.isOptional || linkNullable { attributes.insert(.nullable) }
      switch p.collection {
      case .single: break
      case .list: attributes.insert(.list)
      case .set: attributes.insert(.set)
      case .dictionary: attributes.insert(.dictionary)
      }
      if p.type == .object && p.collection == .list { attributes.remove(.nullable) }
      if p.type == .object && p.collection == .set { attributes.remove(.nullable) }
      if let reason = unsupportedReason(p, format: format) {
        throw FormatError.corrupt("property '\(c.name).\(p.name)' \(reason)")
      }
      // Format 20 has no index on primary keys (objects are found by their derived keys).
      let wantsIndex = isPrimary ? format.indexesPrimaryKeys : p.isIndexed
      if wantsIndex && !isIndexable(p) {
        throw FormatError.corrupt("property '\(c.name).\(p.name)' of type '\(p.type.rawValue)' cannot be indexed")
      }
      if p.isFullTextIndexed {
        guard !isPrimary else { throw FormatError.corrupt("primary key '\(c.name).\(p.name)' cannot have a full-text index") }
        guard p.type == .string, p.collection == .single, !p.isIndexed else {
          throw FormatError.corrupt("property '\(c.name).\(p.name)' of type '\(p.type.rawValue)' cannot have a full-text index")
        }
        attributes.insert(.fullTextIndexed)
      }
      // The primary key's index is not recorded in the spec attributes (§4.5).
      if p.isIndexed && !isPrimary { attributes.insert(.indexed) }
      let type = p.type == .object && p.collection == .list ? format.linkListColumnType : columnType(p.type)
      let colKey = ColKey(leafIndex: i, type: type, attributes: attributes, tag: UInt32(key))
      var plan = ColumnLayout(name: p.name, property: p, type: type, attributes: attributes, colKey: colKey)
      plan.hasIndex = wantsIndex
      plan.hasFullTextIndex = p.isFullTextIndexed
      columns.append(plan)
    }
    if let pk = c.primaryKey, primaryKey == nil {
      throw FormatError.corrupt("primary key '\(pk)' of class '\(c.name)' is not one of its properties")
    }
    return TablePlan(
      name: tableName ?? FormatConstants.classPrefix + c.name, objectSchema: c, key: key, columns: columns,
      primaryKey: primaryKey)
  }
}
