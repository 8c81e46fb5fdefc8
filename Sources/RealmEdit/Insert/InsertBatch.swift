import RealmFormat
import RealmModel
import RealmJSON
import RealmMigration

/// The objects of one `insert` checked against a file: which are new (with the keys they get)
/// and which update existing objects; then merged with the file's objects into a new file.
///
/// Costs per object stay small for a million of them: the file's keys are a sorted array
/// (binary search), primary keys are matched by hashing the input's (not the file's) values,
/// and objects are referred to by their position in the input.
struct InsertBatch {
  /// A new object with its key.
  struct New {
    var key: Int64
    var values: [RealmValue]
    /// Position in the input.
    var order: Int
  }
  /// What the batch knows of one class.
  final class ClassState {
    let table: Table
    let schema: ObjectSchema
    let primaryKey: Int?
    /// The file's object keys, ascending.
    var existingKeys: [Int64] = []
    /// Input positions of the objects of this class, in input order.
    var orders: [Int] = []
    /// By position in `orders`: the key of the file's object with the same primary key, -1
    /// for none (an array: a dictionary costs a cache miss per object for a million).
    var matched: [Int64] = []
    /// Objects placed so far (``InsertBatch/place(order:in:)`` takes them in input order).
    var placed = 0
    /// Input position -> earlier input position with the same primary key.
    var repeats: [Int: Int] = [:]
    var new: [New] = []
    /// Keys given with `$key` to new objects -> input position.
    var givenKeys: [Int64: Int] = [:]
    /// Existing key -> input position of its update.
    var updates: [Int64: Int] = [:]
    /// The properties whose value some update changes (known once
    /// ``InsertBatch/dropUnchangedUpdates()`` compared every update with its object; nil
    /// before): the in-place update writes only their columns.
    var changedProperties: Set<Int>?
    /// The updates left by ``InsertBatch/dropUnchangedUpdates()`` as (key, input position),
    /// ascending by key (nil before, or when it did not compare them all).
    var sortedUpdates: [(key: Int64, value: Int)]?
    /// Every new key, built for link checks on first use.
    var newKeySet: Set<Int64>?

    init(table: Table, schema: ObjectSchema) {
      self.table = table
      self.schema = schema
      primaryKey = schema.primaryKey.flatMap { p in schema.properties.firstIndex { $0.name == p } }
    }

    func exists(_ key: Int64) -> Bool {
      var low = 0
      var high = existingKeys.count
      while low < high {
        let mid = (low + high) / 2
        if existingKeys[mid] < key { low = mid + 1 } else { high = mid }
      }
      return low < existingKeys.count && existingKeys[low] == key
    }

    /// True when values of the class can hold links (links, embedded objects, mixed).
    var canLink: Bool { schema.properties.contains { $0.type == .object || $0.type == .mixed } }
  }

  let group: Group
  let schema: Schema
  let mode: InsertMode
  var objects: [InsertObject] = []
  var classes: [String: ClassState] = [:]
  /// Key sets of classes only linked to, read on first use.
  var linkedKeys: [String: [Int64]] = [:]

  init(group: Group, schema: Schema, mode: InsertMode) {
    self.group = group
    self.schema = schema
    self.mode = mode
  }

  static func invalid(_ location: String, _ className: String, _ property: String?, _ message: String) -> MigrationError {
    MigrationError(.invalidData, path: "\(location): \(className)" + (property.map { ".\($0)" } ?? ""), message)
  }

  /// The file's keys of `table`, ascending.
  func keys(of table: Table) throws -> [Int64] {
    var keys: [Int64] = []
    keys.reserveCapacity(group.reservableObjectCount(of: table))
    try group.forEachObject(in: table, columns: []) { key, _ in keys.append(key) }
    try table.requireObjectCount(keys.count)
    return keys
  }

  /// Sorts the objects into new ones and updates, checking keys and required properties; the
  /// first problem in input order is thrown.
  mutating func add(_ input: [InsertObject]) throws {
    objects = input
    var last: (name: String, state: ClassState)?
    for order in objects.indices {
      let name = objects[order].object.className
      if let last, last.name == name {
        last.state.orders.append(order)
        continue
      }
      if let s = classes[name] {
        s.orders.append(order)
        last = (name, s)
        continue
      }
      guard let table = group.table(forClass: name), let cls = schema.objectSchema(named: name) else {
        throw MigrationError(.invalidData, path: objects[order].location, "the file has no class '\(name)'")
      }
      let s = ClassState(table: table, schema: cls)
      s.orders.append(order)
      classes[cls.name] = s
    }
    for s in classes.values {
      if let pk = s.primaryKey {
        // One walk for the keys and the primary keys of the file.
        let (keys, values) = try primaryKeys(of: s.table, column: pk)
        s.existingKeys = keys
        try matchPrimaryKeys(s, pk, file: values)
      } else {
        s.existingKeys = try keys(of: s.table)
      }
    }
    for s in classes.values { s.updates.reserveCapacity(s.matched.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }) }
    for order in objects.indices {
      try place(order: order, in: classes[objects[order].object.className]!)
    }
  }

  /// The primary-key values of a table's objects: plain integers while every one is a
  /// non-null int (read column-wise, without a value per object), else values.
  enum PrimaryKeyColumn {
    case ints([Int64])
    case values([RealmValue])
  }

  /// The file's keys of `table` (ascending) and the values of its primary-key column `pk`.
  func primaryKeys(of table: Table, column pk: Int) throws -> ([Int64], PrimaryKeyColumn) {
    let columns = table.publicColumns
    if pk < columns.count, let (keys, ints) = try group.keysAndInts(of: table, column: columns[pk]) { return (keys, .ints(ints)) }
    var keys: [Int64] = []
    var ints: [Int64]? = []
    var values: [RealmValue] = []
    keys.reserveCapacity(group.reservableObjectCount(of: table))
    ints?.reserveCapacity(group.reservableObjectCount(of: table))
    try group.forEachObjectRange(in: table) { range in
      try group.forEachBatch(in: range, columns: [pk]) { batch in
        keys += batch.keys
        guard let column = batch.columns[pk] else { throw MigrationError(.invalidData, "the primary keys of '\(table.name)' do not read") }
        if ints != nil, case .int(let c) = column, !c.hasNulls {
          ints! += c.values
          return
        }
        if let read = ints {
          values = read.map { .int($0) }
          ints = nil
        }
        for r in 0..<column.count { values.append(column.value(at: r)) }
      }
    }
    try table.requireObjectCount(keys.count)
    return (keys, ints.map { .ints($0) } ?? .values(values))
  }

  /// Finds the input objects whose primary key is already in the file (`file`, by position
  /// in `existingKeys`), or earlier in the input.
  func matchPrimaryKeys(_ s: ClassState, _ pk: Int, file: PrimaryKeyColumn) throws {
    s.matched = [Int64](repeating: -1, count: s.orders.count)
    if case .ints(let fileInts) = file, matchIntegerPrimaryKeys(s, pk, fileInts: fileInts) { return }
    // Value -> position in `orders`.
    var byValue: [PrimaryKeyValue: Int] = [:]
    byValue.reserveCapacity(s.orders.count)
    for (index, order) in s.orders.enumerated() {
      let value = PrimaryKeyValue(objects[order].object.values[pk])
      if let first = byValue[value] { s.repeats[order] = s.orders[first] } else { byValue[value] = index }
    }
    let fileValues: [RealmValue]
    switch file {
    case .ints(let ints): fileValues = ints.map { .int($0) }
    case .values(let values): fileValues = values
    }
    for (i, v) in fileValues.enumerated() {
      if let index = byValue[PrimaryKeyValue(v)] { s.matched[index] = s.existingKeys[i] }
    }
  }

  /// The same for integer primary keys without hashing: the input's values sorted once, then
  /// joined with the file's (merged when those ascend, as a table's ids usually do, else each
  /// looked up by binary search). False when some input value is not an integer (the caller
  /// hashes them then).
  func matchIntegerPrimaryKeys(_ s: ClassState, _ pk: Int, fileInts: [Int64]) -> Bool {
    // (value, position in `orders`).
    var pairs: [(value: Int64, index: Int)] = []
    pairs.reserveCapacity(s.orders.count)
    for (index, order) in s.orders.enumerated() {
      guard case .int(let v) = objects[order].object.values[pk] else { return false }
      pairs.append((v, index))
    }
    // Inputs often come in primary-key order (a dump, generated ids): no sort then.
    if !pairs.indices.dropFirst().allSatisfy({ pairs[$0 - 1].value < pairs[$0].value }) {
      pairs.sort { ($0.value, $0.index) < ($1.value, $1.index) }
    }
    for i in pairs.indices.dropFirst() where pairs[i].value == pairs[i - 1].value {
      // The first of a run is the earliest in the input.
      var j = i - 1
      while j > 0 && pairs[j - 1].value == pairs[i].value { j -= 1 }
      s.repeats[s.orders[pairs[i].index]] = s.orders[pairs[j].index]
    }
    guard !fileInts.isEmpty, !pairs.isEmpty else { return true }
    if fileInts.indices.dropFirst().allSatisfy({ fileInts[$0 - 1] < fileInts[$0] }) {
      var p = 0
      for (i, v) in fileInts.enumerated() {
        while p < pairs.count && pairs[p].value < v { p += 1 }
        if p == pairs.count { break }
        if pairs[p].value == v { s.matched[pairs[p].index] = s.existingKeys[i] }
      }
      return true
    }
    for (i, v) in fileInts.enumerated() {
      var low = 0
      var high = pairs.count
      while low < high {
        let mid = (low + high) / 2
        if pairs[mid].value < v { low = mid + 1 } else { high = mid }
      }
      if low < pairs.count && pairs[low].value == v { s.matched[pairs[low].index] = s.existingKeys[i] }
    }
    return true
  }

  func place(order: Int, in s: ClassState) throws {
    // Its position in `s.orders` (objects are placed in input order).
    let index = s.placed
    s.placed += 1
    let input = objects[order]
    let o = input.object
    let cls = s.schema
    var existing: Int64?
    if let pk = s.primaryKey {
      let name = cls.properties[pk].name
      if o.missing.contains(pk) && !cls.properties[pk].isOptional {
        throw Self.invalid(input.location, cls.name, name, "the primary key of '\(cls.name)' is missing")
      }
      // Described only for a message (a million of them cost).
      var text: String { ValueText.describe(o.values[pk]) }
      if let first = s.repeats[order] {
        throw Self.invalid(input.location, cls.name, name, "primary key \(text) repeats the object of \(objects[first].location)")
      }
      if index < s.matched.count, s.matched[index] >= 0 {
        let k = s.matched[index]
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
      }
    } else if let given = o.key, s.exists(given) {
      guard mode == .upsert else {
        throw Self.invalid(input.location, cls.name, "$key", "an object of '\(cls.name)' with key \(given) already exists; use --upsert to update it")
      }
      existing = given
    }
    if let existing {
      if let first = s.updates[existing] {
        throw Self.invalid(input.location, cls.name, nil, "the object with key \(existing) is also given at \(objects[first].location)")
      }
      s.updates[existing] = order
      return
    }
    let values = try input.valuesForNewObject(cls)
    if let given = o.key {
      guard given >= 0 && given < Int64.max else { throw Self.invalid(input.location, cls.name, "$key", "key \(given) is out of range") }
      if s.exists(given) {
        throw Self.invalid(input.location, cls.name, "$key", "key \(given) belongs to another object of '\(cls.name)' (keys never change)")
      }
      if let first = s.givenKeys[given] {
        throw Self.invalid(input.location, cls.name, "$key", "key \(given) is also given at \(objects[first].location)")
      }
      s.givenKeys[given] = order
      s.new.append(New(key: given, values: values, order: order))
    } else {
      s.new.append(New(key: -1, values: values, order: order))
    }
  }

  /// Gives the objects without `$key` the keys Realm would: the table's key sequence
  /// continued, skipping keys in use. Then sorts each class's new objects by key.
  mutating func assignKeys() throws {
    for name in classes.keys.sorted() {
      guard let s = classes[name] else { continue }
      let squeezed = s.primaryKey == nil
      var sequence = try ObjectKeySequence.stored(in: s.table, group: group)
        ?? s.existingKeys.last.map { ObjectKeySequence.after(key: $0, squeezed: squeezed) } ?? 0
      var sorted = true
      for i in s.new.indices where s.new[i].key < 0 {
        var key: Int64
        repeat {
          key = ObjectKeySequence.key(for: sequence, squeezed: squeezed)
          sequence += 1
        } while s.exists(key) || s.givenKeys[key] != nil
        guard key >= 0 && key < Int64.max else { throw MigrationError(.invalidData, "the object keys of '\(name)' are exhausted") }
        s.new[i].key = key
      }
      for i in s.new.indices.dropFirst() where s.new[i - 1].key > s.new[i].key {
        sorted = false
        break
      }
      if !sorted { s.new.sort { $0.key < $1.key } }
    }
  }

  /// Every link of a new or updated object must point to an object of the file or the input;
  /// the first bad one in input order is thrown.
  mutating func checkLinks() throws {
    var first: (order: Int, error: MigrationError)?
    for s in classes.values where s.canLink {
      var entries: [(order: Int, values: [RealmValue], missing: [Int])] = s.new.map { ($0.order, $0.values, []) }
      entries += s.updates.values.map { ($0, objects[$0].object.values, objects[$0].object.missing) }
      for e in entries where first.map({ e.order < $0.order }) ?? true {
        for (i, p) in s.schema.properties.enumerated() where (p.type == .object || p.type == .mixed) && !e.missing.contains(i) {
          if let bad = try firstMissingTarget(e.values[i]) {
            first = (
              e.order,
              Self.invalid(
                objects[e.order].location, s.schema.name, p.name,
                "the link to '\(bad.className)' key \(bad.key) points to no object (not in the file nor in the input)")
            )
            break
          }
        }
      }
    }
    if let first { throw first.error }
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
    if let s = classes[link.className] {
      if s.exists(link.key) { return true }
      if s.newKeySet == nil { s.newKeySet = Set(s.new.map(\.key)) }
      return s.newKeySet?.contains(link.key) ?? false
    }
    if linkedKeys[link.className] == nil {
      guard let table = group.table(forClass: link.className) else { return false }
      linkedKeys[link.className] = try keys(of: table)
    }
    guard let keys = linkedKeys[link.className] else { return false }
    var low = 0
    var high = keys.count
    while low < high {
      let mid = (low + high) / 2
      if keys[mid] < link.key { low = mid + 1 } else { high = mid }
    }
    return low < keys.count && keys[low] == link.key
  }

  /// Drops the updates that would change nothing (the values given are those of the object),
  /// so that upserting a file's own dump writes nothing.
  ///
  /// Only the object ranges (cluster leaves) that hold an updated object are decoded: their
  /// keys are known from `existingKeys`, which lists the file's keys in range order.
  mutating func dropUnchangedUpdates() throws {
    for s in classes.values where !s.updates.isEmpty {
      // (key, input position) by key: the leaves are walked in key order beside them.
      let updates = s.updates.sorted { $0.key < $1.key }
      let objects = self.objects
      let updated = updates.map(\.key)
      var given = Set<Int>()
      for (_, order) in updates {
        let o = objects[order].object
        given.formUnion(o.values.indices.filter { !o.missing.contains($0) })
        if given.count == o.values.count { break }
      }
      // The primary key matched: it is never compared.
      if let pk = s.primaryKey { given.remove(pk) }
      if given.isEmpty {
        // Only primary keys given: nothing changes.
        s.updates = [:]
        s.changedProperties = []
        s.sortedUpdates = []
        continue
      }
      let givenList = given.sorted()
      // The updates' values and missing properties by position in `updates` (taken out of
      // the input objects once: reading them through `objects` in the walk copies an object
      // per access).
      let rows = updates.map { (values: objects[$0.value].object.values, missing: objects[$0.value].object.missing) }
      var changed = [Bool](repeating: false, count: s.schema.properties.count)
      var compared = 0
      var kept: [(key: Int64, value: Int)] = []
      kept.reserveCapacity(updates.count)
      var position = 0
      var next = 0
      try group.forEachObjectRange(in: s.table) { range in
        defer { position += range.count }
        guard position + range.count <= s.existingKeys.count, range.count > 0 else { return }
        let last = s.existingKeys[position + range.count - 1]
        while next < updated.count && updated[next] < s.existingKeys[position] { next += 1 }
        guard next < updated.count && updated[next] <= last else { return }
        // Only the properties some update gives are read.
        try group.forEachBatch(in: range, columns: given) { batch in
          // The updated objects of this batch: (row, position in `updates`).
          var hits: [(row: Int, update: Int)] = []
          for (row, key) in batch.keys.enumerated() {
            while next < updated.count && updated[next] < key { next += 1 }
            if next < updated.count, updated[next] == key { hits.append((row, next)) }
          }
          compared += hits.count
          var differs = [Bool](repeating: false, count: hits.count)
          // Column by column: each decoded column is taken out of the batch once.
          for i in givenList {
            let column = batch.columns[i]
            for (h, hit) in hits.enumerated() {
              // A column known to change is written anyway: only whether this object changes
              // at all is still asked.
              if differs[h] && changed[i] { continue }
              if rows[hit.update].missing.contains(i) { continue }
              if let column, Self.sameContent(column, row: hit.row, rows[hit.update].values[i]) { continue }
              differs[h] = true
              changed[i] = true
            }
          }
          for (h, hit) in hits.enumerated() {
            if differs[h] { kept.append(updates[hit.update]) } else { s.updates[updates[hit.update].key] = nil }
          }
        }
      }
      guard compared == updates.count else { continue }
      s.changedProperties = Set(changed.indices.filter { changed[$0] })
      s.sortedUpdates = kept
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

  /// The counts before the write.
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
    let objects = self.objects
    for cls in schema.classes where !cls.isEmbedded {
      guard let table = group.table(forClass: cls.name) else { continue }
      let s = classes[cls.name]
      var next = 0
      func append(_ key: Int64, _ values: [RealmValue], _ order: Int?) throws {
        do {
          try builder.append(className: cls.name, key: key, values: values)
        } catch {
          throw MigrationError(.invalidData, path: order.map { objects[$0].location }, "\(error.detail)")
        }
      }
      try group.forEachObject(in: table) { key, values in
        ticker.tick()
        if let s {
          while next < s.new.count && s.new[next].key < key {
            try append(s.new[next].key, s.new[next].values, s.new[next].order)
            ticker.tick()
            next += 1
          }
          if let order = s.updates[key] {
            let u = objects[order].object
            var merged = values
            for i in merged.indices where !u.missing.contains(i) { merged[i] = u.values[i] }
            try append(key, merged, order)
            return
          }
        }
        try append(key, values, nil)
      }
      if let s {
        while next < s.new.count {
          try append(s.new[next].key, s.new[next].values, s.new[next].order)
          ticker.tick()
          next += 1
        }
      }
    }
  }
}
