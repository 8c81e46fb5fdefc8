/// One difference between a file's schema and a target schema, as Realm's Object Store sees it.
public enum SchemaChange: Sendable, Equatable {
  case addClass(ObjectSchema)
  /// A class of the file that the target does not have. Realm reports it only when comparing
  /// two files (`realmctl diff OLD NEW`); opening a file never drops a class.
  case removeClass(className: String)
  case changeClassType(className: String, toEmbedded: Bool)
  case addProperty(className: String, Property)
  case removeProperty(className: String, Property)
  case changePropertyType(className: String, old: Property, new: Property)
  case makeOptional(className: String, Property)
  case makeRequired(className: String, Property)
  case changePrimaryKey(className: String, old: String?, new: String?)
  case addIndex(className: String, Property)
  case removeIndex(className: String, Property)

  /// True when Realm requires a schema version bump for this change.
  public var needsMigration: Bool {
    switch self {
    case .addClass, .removeClass, .addIndex, .removeIndex: return false
    default: return true
    }
  }

  /// Realm's own sentence for the change (the lines of "Migration is required due to the
  /// following errors:").
  public var realmMessage: String {
    switch self {
    case .addClass(let c): return "Class '\(c.name)' has been added."
    case .removeClass(let c): return "Class '\(c)' has been removed."
    case .changeClassType(let c, let toEmbedded):
      return "Class '\(c)' has been changed from \(toEmbedded ? "TopLevel" : "Embedded") to \(toEmbedded ? "Embedded" : "TopLevel")."
    case .addProperty(let c, let p): return "Property '\(c).\(p.name)' has been added."
    case .removeProperty(let c, let p): return "Property '\(c).\(p.name)' has been removed."
    case .changePropertyType(let c, let old, let new):
      return "Property '\(c).\(new.name)' has been changed from '\(Self.typeString(old))' to '\(Self.typeString(new))'."
    case .makeOptional(let c, let p): return "Property '\(c).\(p.name)' has been made optional."
    case .makeRequired(let c, let p): return "Property '\(c).\(p.name)' has been made required."
    case .changePrimaryKey(let c, let old, let new):
      switch (old, new) {
      case (.some(let o), .some(let n)): return "Primary Key for class '\(c)' has changed from '\(o)' to '\(n)'."
      case (nil, .some): return "Primary Key for class '\(c)' has been added."
      default: return "Primary Key for class '\(c)' has been removed."
      }
    case .addIndex(let c, let p): return "Property '\(c).\(p.name)' has been made indexed."
    case .removeIndex(let c, let p): return "Property '\(c).\(p.name)' has been made unindexed."
    }
  }

  /// Realm's type string for a property (`int`, `<Dog>`, `array<string>`, `set<Dog>`,
  /// `dictionary<string, int>`, `object id`).
  public static func typeString(_ p: Property) -> String {
    let element: String
    switch p.type {
    case .object: element = p.objectType ?? ""
    case .objectId: element = "object id"
    default: element = p.type.rawValue
    }
    switch p.collection {
    case .single: return p.type == .object ? "<\(element)>" : element
    case .list: return "array<\(element)>"
    case .set: return "set<\(element)>"
    case .dictionary: return "dictionary<string, \(element)>"
    }
  }
}

/// Computes the changes that turn `existing` into `target`, in the order Realm reports them.
public enum SchemaComparison {
  /// The differences between the file's schema and the target schema.
  ///
  /// Classes only in the file are not changes (Realm never drops a class implicitly) unless
  /// `includingRemovedClasses` is set: then they are reported where Realm's `Schema::compare`
  /// puts them, in the name order of both schemas.
  public static func changes(
    from existing: Schema, to target: Schema, includingRemovedClasses: Bool = false
  ) -> [SchemaChange] {
    var out: [SchemaChange] = []
    let targetNames = Set(target.classes.map(\.name))
    var removed = includingRemovedClasses
      ? existing.classes.map(\.name).filter { !targetNames.contains($0) }.sorted(by: byteOrder) : []
    for t in target.classes.sorted(by: { byteOrder($0.name, $1.name) }) {
      while let r = removed.first, byteOrder(r, t.name) {
        out.append(.removeClass(className: r))
        removed.removeFirst()
      }
      guard let e = existing.objectSchema(named: t.name) else {
        out.append(.addClass(t))
        continue
      }
      out += changes(from: e, to: t)
    }
    out += removed.map { .removeClass(className: $0) }
    return out
  }

  private static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

  /// The differences within one class.
  public static func changes(from e: ObjectSchema, to t: ObjectSchema) -> [SchemaChange] {
    var out: [SchemaChange] = []
    if e.isEmbedded != t.isEmbedded { out.append(.changeClassType(className: t.name, toEmbedded: t.isEmbedded)) }
    for ep in e.properties {
      guard let tp = t.property(named: ep.name) else {
        out.append(.removeProperty(className: t.name, ep))
        continue
      }
      if ep.type != tp.type || ep.collection != tp.collection || ep.objectType != tp.objectType {
        out.append(.changePropertyType(className: t.name, old: ep, new: tp))
        continue
      }
      if ep.isOptional != tp.isOptional {
        out.append(tp.isOptional ? .makeOptional(className: t.name, tp) : .makeRequired(className: t.name, tp))
      }
      let targetIndexed = tp.isIndexed || t.primaryKey == tp.name
      let existingIndexed = ep.isIndexed || e.primaryKey == ep.name
      if targetIndexed && !existingIndexed { out.append(.addIndex(className: t.name, tp)) }
      if !targetIndexed && existingIndexed { out.append(.removeIndex(className: t.name, tp)) }
    }
    if e.primaryKey != t.primaryKey {
      out.append(.changePrimaryKey(className: t.name, old: e.primaryKey, new: t.primaryKey))
    }
    for tp in t.properties where e.property(named: tp.name) == nil {
      out.append(.addProperty(className: t.name, tp))
    }
    return out
  }
}
