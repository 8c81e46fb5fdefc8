import RealmFormat
import RealmModel
import RealmJSON
import RealmQuery
import RealmStorage
import RealmExport

/// The merge-join of one class's objects in two files (see ``RealmDiff``).
struct ClassJoin {
  let oldClass: ObjectSchema?
  let newClass: ObjectSchema?
  let old: RealmFile
  let new: RealmFile
  let values: DiffValues
  /// Pairs of positions (old, new) of the properties both classes have.
  let common: [(name: String, old: Int, new: Int)]
  /// The primary key's positions (old, new) when objects are matched by primary key.
  let primaryKey: (name: String, old: Int, new: Int)?
  var oldFilter: RealmQuery.Evaluator?
  var newFilter: RealmQuery.Evaluator?
  let hasQuery: Bool
  /// Objects matched by primary key whose partner has not turned up yet: primary key (its
  /// canonical text) -> object key.
  private var waitingOld: [String: Int64] = [:]
  private var waitingNew: [String: Int64] = [:]
  private let encoder: CanonicalEncoder
  private var ticker: ProgressTicker

  init(
    oldClass: ObjectSchema?, newClass: ObjectSchema?, old: RealmFile, new: RealmFile, oldSchema: Schema,
    newSchema: Schema, query: String?, values: DiffValues, progress: ProgressCounter?
  ) throws {
    ticker = ProgressTicker(progress)
    self.oldClass = oldClass
    self.newClass = newClass
    self.old = old
    self.new = new
    self.values = values
    encoder = CanonicalEncoder(schema: oldSchema)
    var common: [(String, Int, Int)] = []
    if let oldClass, let newClass {
      for (i, p) in oldClass.properties.enumerated() {
        if let j = newClass.properties.firstIndex(where: { $0.name == p.name }) { common.append((p.name, i, j)) }
      }
    }
    self.common = common
    if let o = oldClass, let n = newClass, let pk = o.primaryKey, n.primaryKey == pk,
      let i = o.properties.firstIndex(where: { $0.name == pk }), let j = n.properties.firstIndex(where: { $0.name == pk }),
      o.properties[i].type == n.properties[j].type
    {
      primaryKey = (pk, i, j)
    } else {
      primaryKey = nil
    }
    hasQuery = query != nil
    if let query {
      oldFilter = try Self.filter(query, oldClass, oldSchema, old)
      newFilter = try Self.filter(query, newClass, newSchema, new)
    }
  }

  private static func filter(_ text: String, _ cls: ObjectSchema?, _ schema: Schema, _ file: RealmFile) throws
    -> RealmQuery.Evaluator?
  {
    guard let cls else { return nil }
    let query: RealmQuery
    do {
      query = try RealmQuery(text, className: cls.name, schema: schema, group: file.group)
    } catch {
      throw RealmDiff.Failure.badQuery(file: file.path, message: error.description)
    }
    if query.hasDescriptors { throw RealmDiff.Failure.queryHasDescriptors }
    return query.evaluator(source: GroupQuerySource(group: file.group, schema: schema))
  }

  mutating func run(_ report: (RealmDiffChange) throws -> Void) throws {
    let o = try cursor(old, oldClass)
    let n = try cursor(new, newClass)
    defer { ticker.flush() }
    while true {
      let a = try read(o, old)
      let b = try read(n, new)
      switch (a, b) {
      case (nil, nil):
        return try finish(report)
      case (let a?, let b?) where a.key == b.key:
        if let pk = primaryKey, try !values.equal(Self.at(a.values, pk.old), Self.at(b.values, pk.new)) {
          try waitOld(a.key, a.values, report)
          try waitNew(b.key, b.values, report)
        } else {
          try compare(a.values, a.key, b.values, b.key, report)
        }
        o.advance()
        n.advance()
        try ticker.tickCheckingCancellation()
        try ticker.tickCheckingCancellation()
      case (let a?, let b) where b == nil || a.key < b!.key:
        if primaryKey != nil { try waitOld(a.key, a.values, report) } else { try removed(a.key, a.values, report) }
        o.advance()
        try ticker.tickCheckingCancellation()
      case (_, let b?):
        if primaryKey != nil { try waitNew(b.key, b.values, report) } else { try added(b.key, b.values, report) }
        n.advance()
        try ticker.tickCheckingCancellation()
      default:
        return
      }
    }
  }

  // MARK: - Private

  /// The value at `index`, null past the end (checked: the values come from the file).
  private static func at(_ values: [RealmValue], _ index: Int) -> RealmValue {
    index < values.count ? values[index] : .null
  }

  private func cursor(_ file: RealmFile, _ cls: ObjectSchema?) throws -> ObjectCursor {
    try RealmInput.reading(file.path) { try ObjectCursor(group: file.group, table: cls.flatMap { file.group.table(forClass: $0.name) }) }
  }

  private func read(_ cursor: ObjectCursor, _ file: RealmFile) throws -> (key: Int64, values: [RealmValue])? {
    do {
      return try cursor.current()
    } catch let error as FormatError {
      throw StorageError.from(error, path: file.path)
    }
  }

  private func text(_ value: RealmValue) -> String { encoder.text(of: value) }

  private mutating func waitOld(_ key: Int64, _ values: [RealmValue], _ report: (RealmDiffChange) throws -> Void) throws {
    let pk = text(Self.at(values, primaryKey!.old))
    if let partner = waitingNew.removeValue(forKey: pk) {
      guard let other = try fetch(new, newClass!, partner) else { return }
      try compare(values, key, other, partner, report)
    } else {
      waitingOld[pk] = key
    }
  }

  private mutating func waitNew(_ key: Int64, _ values: [RealmValue], _ report: (RealmDiffChange) throws -> Void) throws {
    let pk = text(Self.at(values, primaryKey!.new))
    if let partner = waitingOld.removeValue(forKey: pk) {
      guard let other = try fetch(old, oldClass!, partner) else { return }
      try compare(other, partner, values, key, report)
    } else {
      waitingNew[pk] = key
    }
  }

  /// Objects still waiting have no partner: removed or added, reported in key order.
  private mutating func finish(_ report: (RealmDiffChange) throws -> Void) throws {
    for key in waitingOld.values.sorted() {
      if let v = try fetch(old, oldClass!, key) { try removed(key, v, report) }
    }
    for key in waitingNew.values.sorted() {
      if let v = try fetch(new, newClass!, key) { try added(key, v, report) }
    }
    waitingOld = [:]
    waitingNew = [:]
  }

  private func fetch(_ file: RealmFile, _ cls: ObjectSchema, _ key: Int64) throws -> [RealmValue]? {
    guard let table = file.group.table(forClass: cls.name) else { return nil }
    do {
      return try file.group.object(in: table, key: key)
    } catch {
      throw StorageError.from(error, path: file.path)
    }
  }

  private mutating func matches(inOld: Bool, _ values: [RealmValue], _ key: Int64) throws -> Bool {
    guard hasQuery else { return true }
    let file = inOld ? old : new
    // Taken out while it runs, so that its caches are not copied on every object.
    var filter = inOld ? oldFilter : newFilter
    if inOld { oldFilter = nil } else { newFilter = nil }
    defer { if inOld { oldFilter = filter } else { newFilter = filter } }
    guard filter != nil else { return false }
    do {
      return try filter!.matches(values: values, key: key)
    } catch let error as FormatError {
      throw StorageError.from(error, path: file.path)
    }
  }

  private func identity(_ values: [RealmValue], _ key: Int64, old isOld: Bool) -> DiffObject.Identity {
    // The identity the objects were matched by: a class whose primary key differs between
    // the files is matched by key.
    if let pk = primaryKey { return .primaryKey(name: pk.name, value: Self.at(values, isOld ? pk.old : pk.new)) }
    return .key(key)
  }

  private mutating func compare(
    _ a: [RealmValue], _ aKey: Int64, _ b: [RealmValue], _ bKey: Int64, _ report: (RealmDiffChange) throws -> Void
  ) throws {
    if hasQuery {
      let inOld = try matches(inOld: true, a, aKey)
      let inNew = try matches(inOld: false, b, bKey)
      guard inOld || inNew else { return }
    }
    var changes: [PropertyChange] = []
    for c in common where c.old < a.count && c.new < b.count {
      changes += try values.changes(a[c.old], b[c.new], path: c.name)
    }
    guard !changes.isEmpty, let newClass else { return }
    let object = DiffObject(objectSchema: newClass, identity: identity(b, bKey, old: false), values: [], isOld: false)
    try report(.changed(object, changes))
  }

  private mutating func removed(_ key: Int64, _ v: [RealmValue], _ report: (RealmDiffChange) throws -> Void) throws {
    guard let oldClass, try matches(inOld: true, v, key) else { return }
    try report(.removed(DiffObject(objectSchema: oldClass, identity: identity(v, key, old: true), values: v, isOld: true)))
  }

  private mutating func added(_ key: Int64, _ v: [RealmValue], _ report: (RealmDiffChange) throws -> Void) throws {
    guard let newClass, try matches(inOld: false, v, key) else { return }
    try report(.added(DiffObject(objectSchema: newClass, identity: identity(v, key, old: false), values: v, isOld: false)))
  }
}
