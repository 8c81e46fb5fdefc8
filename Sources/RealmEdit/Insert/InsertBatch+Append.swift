import RealmFormat
import RealmJSON
import RealmModel
import RealmStorage
import RealmMigration

/// The in-place paths of `insert` (docs/commands/insert.md, "How it is written"): when every
/// new object gets a key above its table's keys, updates nothing and links nowhere, the new
/// objects become new cluster leaves (``ClusterAppender``); when every object of an upsert
/// exists and only plain columns change, the leaves holding them get new column leaves
/// (``ClusterUpdater``). Either is committed copy-on-write; the rest of the file stays where
/// it is.
extension InsertBatch {
  /// The objects to append per class name, or nil when the batch needs the rewrite.
  func appendPlan() -> [String: ClusterAppender.Objects]? {
    var plan: [String: ClusterAppender.Objects] = [:]
    for (name, s) in classes {
      guard s.updates.isEmpty else { return nil }
      guard let firstNew = s.new.first else { continue }
      if let last = s.existingKeys.last, firstNew.key <= last { return nil }
      // Values by public column (spec order) from the schema's property order.
      let columns = s.table.publicColumns
      let positions = columns.map { c in s.schema.properties.firstIndex { $0.name == c.name } }
      guard positions.count == s.schema.properties.count, !positions.contains(nil) else { return nil }
      let identity = positions.enumerated().allSatisfy { $0.offset == $0.element }
      var values: [[RealmValue]] = []
      values.reserveCapacity(s.new.count)
      for n in s.new { values.append(identity ? n.values : positions.map { n.values[$0!] }) }
      let lastKey = s.new[s.new.count - 1].key
      let sequence = ObjectKeySequence.after(key: lastKey, squeezed: s.primaryKey == nil)
      let objects = ClusterAppender.Objects(keys: s.new.map(\.key), values: values, sequence: sequence)
      guard ClusterAppender.unsupportedReason(objects, table: s.table, group: group) == nil else { return nil }
      plan[name] = objects
    }
    return plan.isEmpty ? nil : plan
  }

  /// The changes of the upsert per class name when every object of the batch exists (no new
  /// ones) and only columns ``ClusterUpdater`` changes in place are given; nil otherwise.
  func updatePlan() -> [String: ClusterUpdater.Changes]? {
    var plan: [String: ClusterUpdater.Changes] = [:]
    for (name, s) in classes {
      guard s.new.isEmpty else { return nil }
      if s.updates.isEmpty { continue }
      let publicColumns = s.table.publicColumns
      let position = s.schema.properties.map { p in publicColumns.firstIndex { $0.name == p.name } }
      // (key, input position) by key.
      let entries = s.sortedUpdates ?? s.updates.sorted { $0.key < $1.key }
      let keys = entries.map(\.key)
      var given = Set<Int>()
      let settable = s.schema.properties.count - (s.primaryKey == nil ? 0 : 1)
      for (_, order) in entries {
        let u = objects[order].object
        for i in u.values.indices where i != s.primaryKey && !u.missing.contains(i) { given.insert(i) }
        if given.count == settable { break }
      }
      // Only the columns some update changes are written (the unchanged values stay).
      let properties = given.intersection(s.changedProperties ?? given).sorted()
      guard let columns = properties.map({ position[$0] }) as? [Int] else { return nil }
      var values: [[RealmValue?]] = []
      values.reserveCapacity(keys.count)
      for (_, order) in entries {
        let u = objects[order].object
        var row: [RealmValue?] = []
        row.reserveCapacity(properties.count)
        for p in properties {
          guard !u.missing.contains(p) else {
            row.append(nil)
            continue
          }
          guard let v = try? TypedLeafEncoder.coerced(u.values[p], to: s.schema.properties[p].type) else { return nil }
          row.append(v)
        }
        values.append(row)
      }
      let changes = ClusterUpdater.Changes(keys: keys, columns: columns, values: values)
      guard ClusterUpdater.unsupportedReason(changes, table: s.table, group: group) == nil else { return nil }
      plan[name] = changes
    }
    return plan.isEmpty ? nil : plan
  }

  /// Checks that the edits encode (dry run): the nodes are counted, not written.
  static func check(_ edits: InPlaceEdits, group: Group) throws {
    var sink = CountingNodeSink()
    _ = try edits.apply(group, &sink)
  }

  /// Commits the edits in one write transaction on the open file.
  static func commit(_ edits: InPlaceEdits, to target: InsertTarget) throws {
    let commit = try target.begin(appendOnly: false)
    do {
      var sink = commit.transaction
      let results = try edits.apply(commit.group, &sink)
      try commit.commit(results, sink: &sink)
    } catch {
      commit.abort()
      throw error
    }
  }
}

/// One write transaction of `insert`'s in-place paths, on the file the insert opened
/// (``InsertTarget``): begun (with its checks of the file), given new nodes through its
/// transaction (a `NodeSink`), then committed with the new table tops or aborted.
final class InPlaceCommit {
  let transaction: WriteTransaction
  /// The file as the transaction sees it (the insert's).
  let group: Group

  /// Begins the transaction. `appendOnly`: new nodes only past the end of the file, so that an
  /// abort leaves the file byte for byte as it was.
  init(_ target: InsertTarget, appendOnly: Bool) throws {
    var txOptions = Migrator.transactionOptions(lock: target.lock, options: target.options)
    if appendOnly { txOptions.freeSpace = .appendOnly }
    transaction = try WriteTransaction.begin(file: target.file, options: txOptions)
    group = target.group
  }

  /// Commits the nodes written into `sink` and the tables array with the table tops of
  /// `results` (by table slot), freeing what they replaced. The caller aborts when this throws.
  func commit(_ results: [(Int, ClusterAppender.Result)], sink: inout WriteTransaction) throws {
    var tops: [Int: Ref] = [:]
    for (slot, r) in results { tops[slot] = r.tableTop }
    let meta = try MetadataEditor.apply(MetadataEditor.Edits(), to: group, tableTops: tops, sink: &sink)
    try transaction.throwDeferredError()
    for r in results.flatMap(\.1.replaced) + meta.replaced { try transaction.free(r) }
    for r in results.flatMap(\.1.freedDeep) { try transaction.freeDeep(r) }
    _ = try transaction.commit(tableNames: meta.tableNames, tables: meta.tables)
  }

  func abort() { transaction.abort() }
}

/// What `insert` commits in place: new objects appended, or existing objects changed.
enum InPlaceEdits {
  case append([String: ClusterAppender.Objects])
  case update([String: ClusterUpdater.Changes])

  /// The number of objects written.
  var objectCount: Int {
    switch self {
    case .append(let plan): return plan.values.reduce(0) { $0 + $1.keys.count }
    case .update(let plan): return plan.values.reduce(0) { $0 + $1.keys.count }
    }
  }

  /// Writes the nodes of every class (in name order) and returns the table slots and results.
  func apply<S: NodeSink>(_ group: Group, _ sink: inout S) throws -> [(Int, ClusterAppender.Result)] {
    var out: [(Int, ClusterAppender.Result)] = []
    switch self {
    case .append(let plan):
      for name in plan.keys.sorted() {
        guard let objects = plan[name], let table = group.table(forClass: name) else { throw MigrationError(.invalidData, "the file has no class '\(name)'") }
        out.append((table.slot, try ClusterAppender.append(objects, to: table, in: group, sink: &sink)))
      }
    case .update(let plan):
      for name in plan.keys.sorted() {
        guard let changes = plan[name], let table = group.table(forClass: name) else { throw MigrationError(.invalidData, "the file has no class '\(name)'") }
        out.append((table.slot, try ClusterUpdater.apply(changes, to: table, in: group, sink: &sink)))
      }
    }
    return out
  }
}
