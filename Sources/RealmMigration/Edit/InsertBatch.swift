/// The objects of one `insert` checked against a file: which are new (with the keys they get)
/// and which update existing objects; then merged with the file's objects into a new file.
struct InsertBatch {
  /// A new object with its key.
  struct New {
    var key: Int64
    var values: [RealmValue]
    var location: String
    /// Position in the input.
    var order: Int
  }
  /// The given values of an existing object.
  struct Update {
    var values: [RealmValue]
    var missing: [Int]
    var location: String
    /// Position in the input.
    var order: Int
  }
  /// What the batch knows of one class (a class: its sets and maps change in place, one
  /// object at a time).
  final class ClassState {
    let table: Table
    let schema: ObjectSchema
    var existingKeys: Set<Int64> = []
    var primaryKeys: [PrimaryKeyValue: Int64] = [:]
    /// Objects without `$key`, keys to be assigned.
    var unkeyed: [New] = []
    var new: [New] = []
    var newKeys: [Int64: String] = [:]
    var newPrimaryKeys: [PrimaryKeyValue: String] = [:]
    var updates: [Int64: Update] = [:]

    init(table: Table, schema: ObjectSchema) {
      self.table = table
      self.schema = schema
    }
  }

  let group: Group
  let schema: Schema
  let mode: InsertMode
  var classes: [String: ClassState] = [:]
  /// Key sets of classes only linked to, read on first use.
  var linkedKeys: [String: Set<Int64>] = [:]

  init(group: Group, schema: Schema, mode: InsertMode) {
    self.group = group
    self.schema = schema
    self.mode = mode
  }

  static func invalid(_ location: String, _ className: String, _ property: String?, _ message: String) -> MigrationError {
    MigrationError(.invalidData, path: "\(location): \(className)" + (property.map { ".\($0)" } ?? ""), message)
  }

  /// Reads the keys and primary keys of the class on first use.
  mutating func state(_ name: String) throws -> ClassState {
    if let s = classes[name] { return s }
    guard let table = group.table(forClass: name), let cls = schema.objectSchema(named: name) else {
      throw MigrationError(.invalidData, "the file has no class '\(name)'")
    }
    let s = ClassState(table: table, schema: cls)
    let pk = cls.primaryKey.flatMap { p in cls.properties.firstIndex { $0.name == p } }
    var keys = Set<Int64>()
    var pks: [PrimaryKeyValue: Int64] = [:]
    keys.reserveCapacity(table.objectCount)
    try group.forEachObject(in: table, columns: Set(pk.map { [$0] } ?? [])) { key, values in
      keys.insert(key)
      if let pk { pks[PrimaryKeyValue(values[pk])] = key }
    }
    s.existingKeys = keys
    s.primaryKeys = pks
    classes[name] = s
    return s
  }

  /// Sorts the objects into new ones and updates, checking keys and required properties.
  mutating func add(_ objects: [InsertObject]) throws {
    for (order, input) in objects.enumerated() {
      let o = input.object
      let s = try state(o.className)
      let cls = s.schema
      let pkIndex = cls.primaryKey.flatMap { p in cls.properties.firstIndex { $0.name == p } }
      var existing: Int64?
      if let pkIndex {
        let name = cls.properties[pkIndex].name
        if o.missing.contains(pkIndex) && !cls.properties[pkIndex].isOptional {
          throw Self.invalid(input.location, cls.name, name, "the primary key of '\(cls.name)' is missing")
        }
        let v = PrimaryKeyValue(o.values[pkIndex])
        let text = ValueText.describe(o.values[pkIndex])
        if let k = s.primaryKeys[v] {
          guard mode == .upsert else {
            throw Self.invalid(
              input.location, cls.name, name,
              "an object of '\(cls.name)' with primary key \(text) already exists (key \(k)); use --upsert to update it")
          }
          if let given = o.key, given != k {
            throw Self.invalid(
              input.location, cls.name, "$key", "$key \(given) is not the key of the object with primary key \(text) (\(k)); keys never change")
          }
          existing = k
        } else if let first = s.newPrimaryKeys[v] {
          throw Self.invalid(input.location, cls.name, name, "primary key \(text) repeats the object of \(first)")
        } else {
          s.newPrimaryKeys[v] = input.location
        }
      } else if let given = o.key, s.existingKeys.contains(given) {
        guard mode == .upsert else {
          throw Self.invalid(input.location, cls.name, "$key", "an object of '\(cls.name)' with key \(given) already exists; use --upsert to update it")
        }
        existing = given
      }
      if let existing {
        if let first = s.updates[existing] {
          throw Self.invalid(input.location, cls.name, nil, "the object with key \(existing) is also given at \(first.location)")
        }
        s.updates[existing] = Update(values: o.values, missing: o.missing, location: input.location, order: order)
      } else {
        let values = try input.valuesForNewObject(cls)
        if let given = o.key {
          guard given >= 0 && given < Int64.max else { throw Self.invalid(input.location, cls.name, "$key", "key \(given) is out of range") }
          if let first = s.newKeys[given] {
            throw Self.invalid(input.location, cls.name, "$key", "key \(given) is also given at \(first)")
          }
          s.newKeys[given] = input.location
          s.new.append(New(key: given, values: values, location: input.location, order: order))
        } else {
          s.unkeyed.append(New(key: -1, values: values, location: input.location, order: order))
        }
      }
    }
  }

  /// Gives the objects without `$key` the keys Realm would: the table's key sequence
  /// continued, skipping keys in use. Then sorts each class's new objects by key.
  mutating func assignKeys() throws {
    for name in classes.keys.sorted() {
      guard let s = classes[name] else { continue }
      let squeezed = s.schema.primaryKey == nil
      var sequence = try ObjectKeySequence.stored(in: s.table, group: group)
        ?? s.existingKeys.max().map { ObjectKeySequence.after(key: $0, squeezed: squeezed) } ?? 0
      for i in s.unkeyed.indices {
        var key: Int64
        repeat {
          key = ObjectKeySequence.key(for: sequence, squeezed: squeezed)
          sequence += 1
        } while s.existingKeys.contains(key) || s.newKeys[key] != nil
        guard key >= 0 && key < Int64.max else { throw MigrationError(.invalidData, "the object keys of '\(name)' are exhausted") }
        s.unkeyed[i].key = key
        s.newKeys[key] = s.unkeyed[i].location
      }
      s.new += s.unkeyed
      s.unkeyed = []
      s.new.sort { $0.key < $1.key }
    }
  }

  /// Every link of a new or updated object must point to an object of the file or the input.
  mutating func checkLinks() throws {
    // In input order, so the first bad value reported is the first in the input.
    var checks: [(order: Int, location: String, schema: ObjectSchema, values: [RealmValue], missing: [Int])] = []
    for s in classes.values {
      checks += s.new.map { ($0.order, $0.location, s.schema, $0.values, []) }
      checks += s.updates.values.map { ($0.order, $0.location, s.schema, $0.values, $0.missing) }
    }
    checks.sort { $0.order < $1.order }
    for c in checks {
      for (i, p) in c.schema.properties.enumerated() where !c.missing.contains(i) {
        if let bad = try firstMissingTarget(c.values[i]) {
          throw Self.invalid(
            c.location, c.schema.name, p.name,
            "the link to '\(bad.className)' key \(bad.key) points to no object (not in the file nor in the input)")
        }
      }
    }
  }

  mutating func firstMissingTarget(_ value: RealmValue) throws -> ObjectLink? {
    switch value {
    case .link(let l):
      return try exists(l) ? nil : l
    case .embedded(let e):
      for p in e.properties { if let bad = try firstMissingTarget(p.value) { return bad } }
      return nil
    case .list(let items), .set(let items):
      for v in items { if let bad = try firstMissingTarget(v) { return bad } }
      return nil
    case .dictionary(let entries):
      for e in entries { if let bad = try firstMissingTarget(e.value) { return bad } }
      return nil
    default:
      return nil
    }
  }

  mutating func exists(_ link: ObjectLink) throws -> Bool {
    if let s = classes[link.className] { return s.existingKeys.contains(link.key) || s.newKeys[link.key] != nil }
    if let keys = linkedKeys[link.className] { return keys.contains(link.key) }
    guard let table = group.table(forClass: link.className) else { return false }
    var keys = Set<Int64>()
    try group.forEachObject(in: table, columns: []) { key, _ in keys.insert(key) }
    linkedKeys[link.className] = keys
    return keys.contains(link.key)
  }

  /// Drops the updates that would change nothing (the values given are those of the object),
  /// so that upserting a file's own dump writes nothing.
  mutating func dropUnchangedUpdates() throws {
    for name in classes.keys.sorted() {
      guard let s = classes[name], !s.updates.isEmpty else { continue }
      let updates = s.updates
      try group.forEachObject(in: s.table) { key, values in
        guard let u = updates[key] else { return }
        if values.indices.allSatisfy({ u.missing.contains($0) || Self.sameContent(values[$0], u.values[$0]) }) {
          s.updates[key] = nil
        }
      }
    }
  }

  /// Equal values, embedded objects compared by their properties only (their keys are not
  /// part of the data: the file builder gives them new ones).
  static func sameContent(_ a: RealmValue, _ b: RealmValue) -> Bool {
    switch (a, b) {
    case (.embedded(let x), .embedded(let y)):
      return x.className == y.className && x.properties.count == y.properties.count
        && zip(x.properties, y.properties).allSatisfy { $0.name == $1.name && sameContent($0.value, $1.value) }
    case (.list(let x), .list(let y)), (.set(let x), .set(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { sameContent($0, $1) }
    case (.dictionary(let x), .dictionary(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && sameContent($0.value, $1.value) }
    // The dump writes every NaN as "NaN" (its payload is not data); -0.0 keeps its sign.
    case (.float(let x), .float(let y)):
      return x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern
    case (.double(let x), .double(let y)):
      return x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern
    default:
      return a == b
    }
  }

  /// The counts before the write (objects inserted; updates counted as given).
  func counts() -> [EditResult.ClassCounts] {
    classes.keys.sorted().compactMap { name in
      guard let s = classes[name] else { return nil }
      var c = EditResult.ClassCounts(name: name)
      c.objectsBefore = s.table.objectCount
      c.objectsAfter = s.table.objectCount + s.new.count
      c.inserted = s.new.count
      c.updated = s.updates.count
      return c
    }
  }

  /// Streams every top-level class of the file into `builder`, in key order, with the new
  /// objects merged in and the updated ones changed.
  func write<S: SequentialNodeSink>(into builder: RealmFileBuilder<S>, progress: ProgressCounter?) throws {
    var ticker = ProgressTicker(progress)
    defer { ticker.flush() }
    for cls in schema.classes where !cls.isEmbedded {
      guard let table = group.table(forClass: cls.name) else { continue }
      let s = classes[cls.name]
      var next = 0
      func append(_ key: Int64, _ values: [RealmValue], _ location: String?) throws {
        do {
          try builder.append(className: cls.name, key: key, values: values)
        } catch {
          throw MigrationError(.invalidData, path: location, "\(error.detail)")
        }
      }
      try group.forEachObject(in: table) { key, values in
        ticker.tick()
        if let s {
          while next < s.new.count && s.new[next].key < key {
            try append(s.new[next].key, s.new[next].values, s.new[next].location)
            ticker.tick()
            next += 1
          }
          if let u = s.updates[key] {
            var merged = values
            for i in merged.indices where !u.missing.contains(i) { merged[i] = u.values[i] }
            try append(key, merged, u.location)
            return
          }
        }
        try append(key, values, nil)
      }
      if let s {
        while next < s.new.count {
          try append(s.new[next].key, s.new[next].values, s.new[next].location)
          ticker.tick()
          next += 1
        }
      }
    }
  }
}
