import RealmModel

extension SQLExportPlan {
  /// Computes a plan: which classes are exported, their names, columns and child tables.
  struct Builder {
    let byName: [String: ObjectSchema]
    let schema: Schema
    private(set) var topLevel: [String]
    private(set) var tables: [Table] = []
    private(set) var indexes: [Index] = []
    private(set) var layouts: [String: ClassLayout] = [:]
    private(set) var leftOut: [String] = []

    /// Exported classes (top-level and embedded) in schema order.
    private var exported: [ObjectSchema] = []
    /// For each embedded class, the classes whose objects hold its objects, in schema order.
    private var owners: [String: [String]] = [:]
    private var tableNames = SQLNameSpace()
    private var tableOf: [String: String] = [:]
    private var keyColumnOf: [String: String] = [:]

    init(schema: Schema, classNames: [String]?) {
      self.schema = schema
      byName = Dictionary(schema.classes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      let selected = classNames.map(Set.init) ?? Set(schema.classes.filter { !$0.isEmbedded }.map(\.name))
      topLevel = schema.classes.filter { !$0.isEmbedded && selected.contains($0.name) }.map(\.name)
    }

    mutating func build() {
      findEmbeddedClasses()
      for cls in exported { tableOf[cls.name] = tableNames.claim(SQLExportPlan.tableName(cls.name)) }
      var columnNames: [String: (SQLNameSpace, [String])] = [:]
      for cls in exported {
        // Properties keep their names; generated columns are fitted around them.
        var names = SQLNameSpace()
        let propertyColumns = cls.properties.map { names.claim($0.name) }
        keyColumnOf[cls.name] = names.claim("_key")
        columnNames[cls.name] = (names, propertyColumns)
      }
      for cls in exported {
        let (names, propertyColumns) = columnNames[cls.name]!
        addClass(cls, names: names, propertyColumns: propertyColumns)
      }
      for i in indexes.indices {
        let desired = "\(indexes[i].table).\(indexes[i].column).index"
        indexes[i].name = tableNames.claim(SQLExportPlan.tableName(desired))
      }
    }

    /// The embedded classes reachable from the exported top-level classes, and their owners.
    private mutating func findEmbeddedClasses() {
      var reached = Set(topLevel)
      var queue = topLevel
      var next = 0
      while next < queue.count {
        let name = queue[next]
        next += 1
        guard let cls = byName[name] else { continue }
        for p in cls.properties where p.type == .object {
          guard let target = p.objectType, byName[target]?.isEmbedded == true else { continue }
          if !owners[target, default: []].contains(name) { owners[target, default: []].append(name) }
          if reached.insert(target).inserted { queue.append(target) }
        }
      }
      exported = schema.classes.filter { reached.contains($0.name) }
      for (embedded, list) in owners {
        owners[embedded] = schema.classes.map(\.name).filter { list.contains($0) }
      }
    }

    /// The foreign key to `target`'s `_key`, nil (and noted) when the class is not exported.
    private mutating func reference(to target: String?, onDelete: String) -> Reference? {
      guard let target else { return nil }
      guard let table = tableOf[target], let key = keyColumnOf[target] else {
        if !leftOut.contains(target) { leftOut.append(target) }
        return nil
      }
      return Reference(table: table, column: key, onDelete: onDelete)
    }

    /// `Address (embedded)` for embedded classes, the name otherwise.
    private func describe(_ p: Property) -> String {
      var t = SQLExportPlan.realmType(p)
      if p.type == .object, let target = p.objectType, byName[target]?.isEmbedded == true {
        t += " (embedded)"
      }
      return t
    }

    private mutating func addClass(_ cls: ObjectSchema, names: SQLNameSpace, propertyColumns: [String]) {
      var names = names
      let tableName = tableOf[cls.name]!
      var columns = [
        Column(
          name: keyColumnOf[cls.name]!, declaredType: "INTEGER", isPrimaryKey: true,
          comment: cls.isEmbedded ? "key of the embedded object" : "object key")
      ]
      var sources: [ColumnSource] = [.key]
      if cls.isEmbedded {
        let ownerClasses = owners[cls.name] ?? []
        for owner in ownerClasses {
          let name = names.claim(ownerClasses.count == 1 ? "_parent" : "_parent_\(owner)")
          let kind = byName[owner]?.isEmbedded == true ? "embedded object" : "object"
          columns.append(
            Column(
              name: name, declaredType: "INTEGER", notNull: ownerClasses.count == 1,
              reference: reference(to: owner, onDelete: "CASCADE"),
              comment: "key of the \(owner) \(kind) that holds it"))
          sources.append(.parent(ownerClass: owner))
          indexes.append(Index(name: "", table: tableName, column: name, unique: false))
        }
        columns.append(
          Column(
            name: names.claim("_parent_property"), declaredType: "TEXT", notNull: true,
            comment: "the property of the parent that holds it"))
        sources.append(.parentProperty)
      }
      var childTables: [Int?] = Array(repeating: nil, count: cls.properties.count)
      var children: [Table] = []
      for (i, p) in cls.properties.enumerated() {
        let columnName = propertyColumns[i]
        var comment = describe(p)
        if p.name == cls.primaryKey {
          comment += ", primary key"
        } else if p.isFullTextIndexed {
          comment += ", full-text index"
        } else if p.isIndexed {
          comment += ", indexed"
        }
        switch p.collection {
        case .single where p.type == .mixed:
          columns.append(Column(name: columnName, declaredType: "", comment: comment + ": the value"))
          sources.append(.mixedValue(property: i))
          columns.append(
            Column(
              name: names.claim(columnName + "_type"), declaredType: "TEXT",
              comment: "type of \(p.name)'s value"))
          sources.append(.mixedType(property: i))
        case .single:
          var column = SQLExportPlan.valueColumn(name: columnName, p)
          column.comment = comment
          if p.type == .object {
            column.reference = reference(to: p.objectType, onDelete: "SET NULL")
            if column.reference == nil { column.comment += " (class not exported: no foreign key)" }
          }
          columns.append(column)
          sources.append(.value(property: i))
        case .list, .set, .dictionary:
          childTables[i] = children.count
          children.append(childTable(of: cls, p, parentTable: tableName))
        }
        if p.collection == .single && p.type != .object && (p.isIndexed || p.name == cls.primaryKey) {
          let unique = p.name == cls.primaryKey
          indexes.append(Index(name: "", table: tableName, column: columnName, unique: unique))
        }
      }
      let tableIndex = tables.count
      tables.append(
        Table(
          name: tableName, columns: columns, constraints: [],
          comment: cls.isEmbedded
            ? "\(cls.name): embedded objects, each with a reference to the object that holds it"
            : "\(cls.name): one row per object"))
      for i in childTables.indices {
        if let child = childTables[i] { childTables[i] = tableIndex + 1 + child }
      }
      tables.append(contentsOf: children)
      layouts[cls.name] = ClassLayout(
        objectSchema: cls, table: tableIndex, sources: sources, childTables: childTables)
    }

    private mutating func childTable(of cls: ObjectSchema, _ p: Property, parentTable: String) -> Table {
      let name = tableNames.claim(SQLExportPlan.tableName("\(cls.name).\(p.name)"))
      var columns = [
        Column(
          name: "parent", declaredType: "INTEGER", notNull: true,
          reference: Reference(table: parentTable, column: keyColumnOf[cls.name]!, onDelete: "CASCADE"),
          comment: "key of the \(cls.name) that holds it")
      ]
      var constraints: [String] = []
      switch p.collection {
      case .list:
        columns.append(Column(name: "position", declaredType: "INTEGER", notNull: true, comment: "0, 1, 2, ..."))
        constraints.append("PRIMARY KEY (\"parent\", \"position\")")
      case .dictionary:
        columns.append(Column(name: "key", declaredType: "TEXT", notNull: true, comment: "the key"))
        constraints.append("PRIMARY KEY (\"parent\", \"key\")")
      case .set, .single:
        indexes.append(Index(name: "", table: name, column: "parent", unique: false))
      }
      let element = Property(name: "value", type: p.type, objectType: p.objectType, isOptional: p.isOptional)
      let elementType = describe(element)
      if p.type == .mixed {
        columns.append(Column(name: "value", declaredType: "", comment: "mixed: the value"))
        columns.append(Column(name: "value_type", declaredType: "TEXT", comment: "its type"))
      } else {
        var column = SQLExportPlan.valueColumn(name: "value", element)
        column.comment = elementType
        if p.type == .object {
          // Realm removes a deleted target from lists and sets, and sets it to null in dictionaries.
          let inDictionary = p.collection == .dictionary
          column.reference = reference(to: p.objectType, onDelete: inDictionary ? "SET NULL" : "CASCADE")
          column.notNull = !inDictionary
          if column.reference == nil { column.comment += " (class not exported: no foreign key)" }
        }
        columns.append(column)
      }
      let kind = p.collection == .list ? "list" : p.collection == .set ? "set" : "dictionary"
      return Table(
        name: name, columns: columns, constraints: constraints,
        comment: "\(cls.name).\(p.name): \(kind) of \(elementType), one row per element")
    }
  }
}
