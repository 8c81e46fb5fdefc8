import RealmFormat
import RealmModel
import RealmStorage

/// The primary keys of link targets in one file, looked up by key (a few recent ones cached).
package final class LinkResolver {
  package let group: Group
  /// The file's path, for errors.
  package let path: String
  /// Per class: its table and the position of its primary key property, nil without one.
  private var classes: [String: (Table, Int)?] = [:]
  private let schema: Schema
  private var cache: [ObjectLink: RealmValue] = [:]

  package init(group: Group, schema: Schema, path: String) {
    self.group = group
    self.schema = schema
    self.path = path
  }

  /// The primary key value of the link's target, nil when its class has none (or the target
  /// is missing).
  package func primaryKey(of link: ObjectLink) throws -> RealmValue? {
    if let hit = cache[link] { return hit }
    let target: (Table, Int)?
    if let known = classes[link.className] {
      target = known
    } else {
      let cls = schema.objectSchema(named: link.className)
      let index = cls.flatMap { c in c.primaryKey.flatMap { pk in c.properties.firstIndex { $0.name == pk } } }
      target = index.flatMap { i in group.table(forClass: link.className).map { ($0, i) } }
      classes[link.className] = target
    }
    guard let (table, index) = target else { return nil }
    guard let values = try RealmInput.reading(path, { try group.object(in: table, key: link.key, columns: [index]) }), index < values.count
    else { return nil }
    if cache.count > 4096 { cache.removeAll(keepingCapacity: true) }
    cache[link] = values[index]
    return values[index]
  }

  /// The table of `className` and the position of its primary key, nil without one.
  package func primaryKeyColumn(_ className: String) -> (Table, Int)? {
    guard let cls = schema.objectSchema(named: className), let pk = cls.primaryKey,
      let i = cls.properties.firstIndex(where: { $0.name == pk }), let table = group.table(forClass: className)
    else { return nil }
    return (table, i)
  }

  /// True when links to `className` are shown by primary key.
  package func hasPrimaryKey(_ className: String) -> Bool {
    schema.objectSchema(named: className)?.primaryKey != nil
  }
}

/// The primary keys of link targets in an old and a new file (the same file twice for a
/// ``StableDump``).
public struct LinkPrimaryKeys {
  let old: LinkResolver
  let new: LinkResolver

  package init(old: LinkResolver, new: LinkResolver) {
    self.old = old
    self.new = new
  }

  /// The primary key of a link's target (in the old or the new file), nil when its class has
  /// none.
  public func primaryKey(of link: ObjectLink, inOld: Bool) throws -> RealmValue? {
    try (inOld ? old : new).primaryKey(of: link)
  }
}
