import RealmFormat
import RealmStorage

/// The in-place append of `insert` (docs/commands/insert.md, "How it is written"): when every
/// new object gets a key above its table's keys, updates nothing and links nowhere, the new
/// objects become new cluster leaves committed copy-on-write (``ClusterAppender``) and the
/// rest of the file stays where it is.
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

  /// Checks that the append encodes (dry run): the nodes are counted, not written.
  func checkAppend(_ plan: [String: ClusterAppender.Objects]) throws {
    var sink = CountingNodeSink()
    for name in plan.keys.sorted() {
      guard let objects = plan[name], let table = group.table(forClass: name) else { continue }
      _ = try ClusterAppender.append(objects, to: table, in: group, sink: &sink)
    }
  }

  /// Commits the append in one write transaction: the new leaves, inner nodes, indexes and
  /// table tops, then the tables array.
  static func commitAppend(
    _ plan: [String: ClusterAppender.Objects], path: String, lock: FileLock, options: MigrationOptions
  ) throws {
    let tx = try WriteTransaction.begin(path: path, options: Migrator.transactionOptions(lock: lock, options: options))
    do {
      let current = try Group(reader: tx.reader)
      var sink = TransactionNodeSink(transaction: tx)
      var tops: [Int: Ref] = [:]
      var replaced: [Ref] = []
      var freedDeep: [Ref] = []
      for name in plan.keys.sorted() {
        guard let objects = plan[name], let table = current.table(forClass: name) else {
          throw MigrationError(.invalidData, "the file has no class '\(name)'")
        }
        let r = try ClusterAppender.append(objects, to: table, in: current, sink: &sink)
        tops[table.slot] = r.tableTop
        replaced += r.replaced
        freedDeep += r.freedDeep
      }
      let meta = try MetadataEditor.apply(MetadataEditor.Edits(), to: current, tableTops: tops, sink: &sink)
      if let error = sink.error { throw error }
      for r in replaced + meta.replaced { try tx.free(r) }
      for r in freedDeep { try tx.freeDeep(r) }
      _ = try tx.commit(tableNames: meta.tableNames, tables: meta.tables)
    } catch {
      tx.abort()
      throw error
    }
  }
}
