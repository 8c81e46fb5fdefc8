import RealmModel
/// The Object Store view of a group (§7): classes, properties, schema version.
extension Group {
  /// The schema version stored in the `metadata` table (§7.1), nil when the file is
  /// unversioned (no table, no column, no object, or the value -1 / `UInt64.max`).
  public func schemaVersion() throws(FormatError) -> Int64? {
    guard let table = table(named: FormatConstants.metadataTable),
      let column = table.column(named: "version") ?? table.publicColumns.first,
      column.type == .int, table.objectCount > 0
    else { return nil }
    var version: Int64?
    if table.isLegacyLayout {
      // Formats 2-9: row 0 of the legacy table.
      if let values = try object(in: table, key: 0), let i = table.publicColumns.firstIndex(of: column),
        case .int(let v) = values[i]
      {
        version = v
      }
    } else {
      var found = false
      try clusterTree.forEachLeaf(root: table.clusterRoot) { (leaf) throws(FormatError) in
        guard !found, leaf.count > 0 else { return }
        found = true
        guard let node = try leaf.columnNode(column.leafIndex) else {
          throw FormatError.corrupt("the metadata table has no leaf for its version column", at: leaf.node.ref.rawValue)
        }
        let ints = try IntLeaf(node, nullable: column.isNullable)
        guard ints.count == leaf.count else {
          throw FormatError.corrupt("the metadata version column has \(ints.count) values for \(leaf.count) objects", at: node.ref.rawValue)
        }
        version = ints.value(0)
      }
    }
    guard let version, version != -1 else { return nil }  // ObjectStore::NotVersioned
    return version
  }

  /// The classes of the file as an SDK sees them (§7.3): `class_` tables sorted by name
  /// (byte order), public columns in spec order, link targets by class name, indexes including
  /// the primary key's, and the schema version.
  public func schema() throws(FormatError) -> Schema {
    var classes: [ObjectSchema] = []
    for table in tables where table.className != nil {
      classes.append(try objectSchema(of: table))
    }
    classes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return Schema(schemaVersion: try schemaVersion(), fileFormat: fileFormat, classes: classes)
  }

  /// The properties of any table, a class or another table (`metadata`, tables of files not
  /// written through the Object Store), as an object schema named ``Table/linkName``: what
  /// ``schema()`` gives for classes.
  public func objectSchema(of table: Table) throws(FormatError) -> ObjectSchema {
    var properties: [Property] = []
    for column in table.publicColumns {
      properties.append(try property(column, in: table))
    }
    let pk = table.primaryKey.flatMap { table.column(key: $0)?.name }
    return ObjectSchema(name: table.linkName, isEmbedded: table.isEmbedded, primaryKey: pk, properties: properties)
  }

  /// The Object Store property of a column (`ObjectSchema` from a table, §7.3).
  func property(_ column: Column, in table: Table) throws(FormatError) -> Property {
    guard let type = column.type.propertyType else {
      throw FormatError.corrupt("column '\(column.name)' of '\(table.name)' has type \(column.type.rawValue), which is not a property type")
    }
    var objectType: String?
    if column.isLink {
      guard let key = column.oppositeTableKey, let target = self.table(key: key) else {
        throw FormatError.corrupt("link column '\(column.name)' of '\(table.name)' has no target table", at: table.ref.rawValue)
      }
      objectType = target.linkName
    }
    let fullText = column.attributes.contains(.fullTextIndexed)
    return Property(
      name: column.name, type: type, collection: column.collectionKind, objectType: objectType,
      isOptional: column.isNullable, isIndexed: (column.hasSearchIndex || column.key == table.primaryKey) && !fullText,
      isFullTextIndexed: fullText)
  }
}
