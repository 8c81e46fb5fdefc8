import RealmModel
/// Whether a file's content can be stored in another file format (see ``FormatFeature``).
///
/// Writing a file in an older format (20, 22 or 23) must first make sure the format can hold
/// everything the file holds: Realm only ever upgrades, so nothing else catches it.
public enum FormatCompatibility {
  /// The first thing in `group` that `targetFormat` cannot store, nil when it can store all of it.
  ///
  /// The order is deterministic. First the schema, which needs no object: for each table
  /// (Object Store classes in ascending byte order of their names, as ``Group/schema()`` lists
  /// them, then the other tables in file order), the table itself (embedded, asymmetric), then
  /// its properties in column order (their types, full-text indexes). Then the values, only
  /// when the target lacks nested collections: the `Mixed` properties of each table, objects
  /// in ascending key order, the first property in column order within an object. Only those
  /// columns are read, with the group's bounded readers; single `Mixed` values only by their
  /// type tags, so a table of a million objects takes milliseconds.
  ///
  /// - Parameters:
  ///   - group: the group of the file to check.
  ///   - targetFormat: the file format to write; formats 24 and newer store everything.
  /// - Throws: ``FormatError`` for a damaged file.
  public static func firstObstacle(in group: Group, targetFormat: Int) throws(FormatError) -> FormatObstacle? {
    let tables = orderedTables(group)
    for table in tables {
      if let obstacle = schemaObstacle(table, group: group, targetFormat: targetFormat) { return obstacle }
    }
    guard !FormatFeature.nestedCollectionInMixed.isStorable(in: targetFormat) else { return nil }
    for table in tables {
      if let obstacle = try nestedCollection(in: table, group: group) { return obstacle }
    }
    return nil
  }

  /// Classes by name (byte order), then the other tables in file order.
  static func orderedTables(_ group: Group) -> [Table] {
    let classes = group.tables.filter { $0.className != nil }
      .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return classes + group.tables.filter { $0.className == nil }
  }

  // MARK: - Schema

  /// The first obstacle of the table's kind or of one of its properties.
  static func schemaObstacle(_ table: Table, group: Group, targetFormat: Int) -> FormatObstacle? {
    let name = table.linkName
    let kind: FormatFeature? =
      switch table.type {
      case .embedded: .embeddedClass
      case .topLevelAsymmetric: .asymmetricClass
      case .topLevel: nil
      }
    if let kind, !kind.isStorable(in: targetFormat) {
      let what = kind == .embeddedClass ? "is an embedded class" : "is an asymmetric class"
      return FormatObstacle(className: name, property: nil, reason: what, features: [kind])
    }
    for column in table.publicColumns {
      let missing = features(of: column).filter { !$0.isStorable(in: targetFormat) }
      if !missing.isEmpty {
        return FormatObstacle(
          className: name, property: column.name, reason: "is " + typeText(column, group: group), features: missing)
      }
      if column.attributes.contains(.fullTextIndexed), !FormatFeature.fullTextIndex.isStorable(in: targetFormat) {
        return FormatObstacle(
          className: name, property: column.name, reason: "has a full-text index", features: [.fullTextIndex])
      }
    }
    return nil
  }

  /// The features a column's type needs.
  static func features(of column: Column) -> [FormatFeature] {
    var needed: [FormatFeature] = []
    switch column.collectionKind {
    case .set: needed.append(.set)
    case .dictionary: needed.append(.dictionary)
    case .single, .list: break
    }
    switch column.type {
    case .decimal: needed.append(.decimal128)
    case .objectId: needed.append(.objectId)
    case .uuid: needed.append(.uuid)
    case .mixed, .typedLink: needed.append(.mixed)
    default: break
    }
    return needed
  }

  /// `a Set of Mixed`, `a UUID`, `an ObjectId`, `a Dictionary of links to Dog`.
  static func typeText(_ column: Column, group: Group) -> String {
    let element: String
    if column.isLink {
      let target = column.oppositeTableKey.flatMap { group.table(key: $0) }?.linkName ?? "objects"
      element = column.collectionKind == .single ? "link to \(target)" : "links to \(target)"
    } else {
      element = typeName(column.type)
    }
    switch column.collectionKind {
    case .single: return (element.first.map { "AEIOU".contains($0) } == true ? "an " : "a ") + element
    case .list: return "a List of \(element)"
    case .set: return "a Set of \(element)"
    case .dictionary: return "a Dictionary of \(element)"
    }
  }

  /// Realm's name of a value type.
  static func typeName(_ type: ColumnType) -> String {
    switch type {
    case .int: "Int"
    case .bool: "Bool"
    case .string, .oldStringEnum: "String"
    case .binary: "Data"
    case .timestamp, .oldDateTime: "Date"
    case .float: "Float"
    case .double: "Double"
    case .decimal: "Decimal128"
    case .objectId: "ObjectId"
    case .uuid: "UUID"
    case .mixed: "Mixed"
    case .typedLink: "typed link"
    case .link, .linkList: "link"
    case .backlink: "backlink"
    case .oldTable: "subtable"
    }
  }

  // MARK: - Values

  /// Stops the object walk at the first nested collection.
  private struct Found: Error {
    var obstacle: FormatObstacle
  }

  /// The first `Mixed` value of `table` holding a list or dictionary, by object key then column.
  static func nestedCollection(in table: Table, group: Group) throws(FormatError) -> FormatObstacle? {
    let columns = table.publicColumns
    let mixed = columns.indices.filter { columns[$0].type == .mixed }
    guard !mixed.isEmpty, table.objectCount > 0 else { return nil }
    if !table.isLegacyLayout, mixed.allSatisfy({ columns[$0].collectionKind == .single }) {
      return try nestedInSingleMixed(table, columns: mixed.map { columns[$0] }, group: group)
    }
    do {
      try group.forEachObject(in: table, columns: Set(mixed)) { key, values in
        for position in mixed {
          if let kind = nestedKind(values[position], collection: columns[position].collectionKind) {
            throw Found(obstacle: FormatObstacle(
              className: table.linkName, property: columns[position].name, objectKey: key,
              reason: "holds a nested \(kind) inside a Mixed", features: [.nestedCollectionInMixed]))
          }
        }
      }
    } catch let found as Found {
      return found.obstacle
    } catch let error as FormatError {
      throw error
    } catch {
      throw FormatError(.corrupt, "reading the Mixed values of '\(table.name)' failed: \(error)")
    }
    return nil
  }

  /// The first nested collection of single `Mixed` columns, read from the type tags of their
  /// leaves (nothing else is decoded): a million objects take a few milliseconds.
  static func nestedInSingleMixed(_ table: Table, columns: [Column], group: Group) throws(FormatError) -> FormatObstacle? {
    var found: FormatObstacle?
    try group.clusterTree.forEachLeaf(root: table.clusterRoot) { (leaf) throws(FormatError) in
      guard found == nil else { return }
      var leaves: [MixedLeaf?] = []
      for column in columns {
        guard let node = try leaf.columnNode(column.leafIndex) else {
          leaves.append(nil)
          continue
        }
        let mixed = try MixedLeaf(node)
        guard mixed.count == leaf.count else {
          throw FormatError.corrupt(
            "the '\(column.name)' leaf at \(node.ref) of '\(table.name)' holds \(mixed.count) values for \(leaf.count) objects",
            at: node.ref.rawValue)
        }
        leaves.append(mixed)
      }
      for row in 0..<leaf.count {
        for (c, mixed) in leaves.enumerated() {
          if let kind = mixed?.nestedCollectionKind(row) {
            found = FormatObstacle(
              className: table.linkName, property: columns[c].name, objectKey: leaf.key(row),
              reason: "holds a nested \(kind) inside a Mixed", features: [.nestedCollectionInMixed])
            return
          }
        }
      }
    }
    return found
  }

  /// `list` or `dictionary` when a Mixed column's value (one Mixed, or a collection of them)
  /// has a collection where a Mixed value is.
  static func nestedKind(_ value: RealmValue, collection: CollectionKind) -> String? {
    switch collection {
    case .single:
      return collectionKind(value)
    case .list, .set:
      guard case .list(let elements) = value else {
        if case .set(let elements) = value { return elements.lazy.compactMap(collectionKind).first }
        return nil
      }
      return elements.lazy.compactMap(collectionKind).first
    case .dictionary:
      guard case .dictionary(let entries) = value else { return nil }
      return entries.lazy.compactMap { collectionKind($0.value) }.first
    }
  }

  private static func collectionKind(_ value: RealmValue) -> String? {
    switch value {
    case .list: "list"
    case .dictionary: "dictionary"
    case .set: "set"
    default: nil
    }
  }
}
