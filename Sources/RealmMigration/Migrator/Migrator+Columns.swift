import RealmFormat
import RealmModel
import RealmStorage

/// The in-place column path (docs/writing.md, "In-place column changes" and "Column-wise
/// transforms"): programs whose classes keep some of their columns unchanged and whose other
/// columns hold one constant or values computed per object from the object's own values are
/// committed copy-on-write with ``ColumnEditor`` and ``MetadataEditor`` in one transaction,
/// instead of rewriting the file. Only the changed columns' leaves (and the cluster nodes
/// above them) are written.
extension Migrator {
  /// The edits of a program the in-place column path can commit.
  struct ColumnChangePlan {
    /// Per table name (before renames): columns removed, added, renamed and recomputed.
    var columns: [String: ColumnEditor.TableEdit]
    /// Table renames and the schema version.
    var metadata: MetadataEditor.Edits
    /// True when some column's values are computed per object (a transform, a type or
    /// optionality change): the report calls the path "columns" either way.
    var computesValues: Bool
  }

  /// Where a value of the working layout comes from while the stages are followed.
  enum Origin: Equatable {
    /// Unchanged from this source column.
    case source(Int)
    /// The same constant for every object.
    case constant(RealmValue)
    /// Computed per object; `from` is the source column that held this position, if any.
    case computed(from: Int?)
  }

  /// The final layout of a class and the source columns its computed values read.
  struct FinalLayout {
    var origins: [Origin]
    /// Source column positions the stages read; nil when unknown (all of them).
    var reads: Set<Int>?
    /// True when some expression's values depend on the evaluation order (`uuid()`).
    var orderSensitive: Bool
  }

  /// The plan for committing `program` in place, or nil when it needs the rewrite: a class is
  /// created, deleted, made embedded or top-level, a stage deletes objects or runs a program,
  /// the primary key changes or is recomputed, or a changed column is of a kind
  /// ``ColumnEditor`` does not handle (links, mixed, collections with values, enumerated strings).
  ///
  /// `progress` counts the objects whose values are computed (its total is set here).
  static func columnChangePlan(
    _ program: MigrationProgram, group: Group, progress: ProgressCounter? = nil
  ) -> ColumnChangePlan? {
    // The file's own format must be one realmctl writes: the new leaves keep it.
    guard WritableFileFormat(keeping: group.fileFormat)?.rawValue == group.fileFormat, program.deletedClasses.isEmpty
    else { return nil }
    var metadata = MetadataEditor.Edits()
    var columns: [String: ColumnEditor.TableEdit] = [:]
    var computesValues = false
    var computedObjects = 0
    for c in program.classes {
      guard let source = c.sourceSchema, c.sourceClass == source.name, !c.becomesEmbedded, !c.becomesTopLevel,
        !c.checkPrimaryKey, source.isEmbedded == c.finalSchema.isEmbedded
      else { return nil }
      guard let layout = finalLayout(c, sourceCount: source.properties.count) else { return nil }
      let final = c.finalSchema.properties
      var edit = ColumnEditor.TableEdit()
      var keptSources = Set<Int>()
      var computedFinal: [Int] = []  // final positions, in the order the value source returns them
      var recomputedFinal: [Int] = []
      var addedComputed: [Int] = []
      var reads = layout.reads
      // First the columns kept as they are: a source column whose values and definition stay.
      var claims: [Int: Int] = [:]  // source column -> final position that keeps or recomputes it
      for (j, origin) in layout.origins.enumerated() {
        if case .source(let i) = origin, claims[i] == nil, sameDefinition(source.properties[i], final[j]) { claims[i] = j }
      }
      for (j, origin) in layout.origins.enumerated() {
        if case .computed(let from?) = origin, claims[from] == nil, sameDefinition(source.properties[from], final[j]) {
          claims[from] = j
        }
      }
      for (j, origin) in layout.origins.enumerated() {
        let p = final[j]
        switch origin {
        case .source(let i) where claims[i] == j:
          keptSources.insert(i)
          let old = source.properties[i]
          if old.name != p.name { edit.renamed[old.name] = p.name }
        case .computed(let from?) where claims[from] == j:
          guard computable(p) else { return nil }
          keptSources.insert(from)
          let old = source.properties[from]
          if old.name != p.name { edit.renamed[old.name] = p.name }
          edit.recomputed.append(old.name)
          recomputedFinal.append(j)
        case .source(let i):
          // Same values, another definition (optionality, type, index): a new column.
          reads?.insert(i)
          guard computable(p), c.finalSchema.primaryKey != p.name else { return nil }
          edit.added.append(ColumnEditor.NewColumn(computed: p))
          addedComputed.append(j)
        case .computed:
          guard computable(p), c.finalSchema.primaryKey != p.name else { return nil }
          edit.added.append(ColumnEditor.NewColumn(computed: p))
          addedComputed.append(j)
        case .constant(let value):
          guard p.type != .object, !p.isIndexed, !p.isFullTextIndexed, c.finalSchema.primaryKey != p.name else { return nil }
          guard let v = constantValue(value, for: p) else { return nil }
          edit.added.append(ColumnEditor.NewColumn(property: p, value: v))
        }
      }
      computedFinal = recomputedFinal + addedComputed
      if let pk = source.primaryKey {
        // The primary key must stay as it is (recomputed keys need the uniqueness check of
        // the rewrite).
        guard let i = source.properties.firstIndex(where: { $0.name == pk }), claims[i] != nil,
          case .source = layout.origins[claims[i]!], c.finalSchema.primaryKey == final[claims[i]!].name
        else { return nil }
      }
      if source.primaryKey == nil, c.finalSchema.primaryKey != nil { return nil }
      for (i, p) in source.properties.enumerated() where !keptSources.contains(i) {
        guard p.type != .object else { return nil }
        edit.removed.append(p.name)
      }
      let table = FormatConstants.classPrefix + source.name
      if source.name != c.finalSchema.name { metadata.tableRenames[table] = FormatConstants.classPrefix + c.finalSchema.name }
      if !computedFinal.isEmpty {
        computesValues = true
        edit.order = final.map(\.name)
        edit.values = TransformColumnSource(
          className: c.finalSchema.name, stages: c.stages, finalPositions: computedFinal,
          properties: computedFinal.map { final[$0] }, readColumns: reads, allowsConcurrentCalls: !layout.orderSensitive,
          progress: progress)
        // Saturating: a damaged file may claim absurd counts (the walks themselves are bounded).
        let n = max(group.table(forClass: source.name)?.objectCount ?? 0, 0)
        computedObjects = computedObjects.addingReportingOverflow(n).overflow ? .max : computedObjects + n
      }
      if !edit.added.isEmpty || !edit.removed.isEmpty || !edit.recomputed.isEmpty {
        columns[table] = edit
      } else if !edit.renamed.isEmpty {
        // Renames only: the names array is enough, the clusters stay (MetadataEditor).
        metadata.columnRenames[table] = edit.renamed
      }
    }
    if program.fileVersion != program.targetVersion {
      guard program.fileVersion != nil else { return nil }
      metadata.schemaVersion = program.targetVersion
    }
    guard !columns.isEmpty, ColumnEditor.unsupportedReason(columns, in: group) == nil,
      MetadataEditor.canApply(metadata, to: group)
    else { return nil }
    if computesValues { progress?.setTotal(computedObjects) }
    return ColumnChangePlan(columns: columns, metadata: metadata, computesValues: computesValues)
  }

  /// True when `a` and `b` differ by name at most.
  private static func sameDefinition(_ a: Property, _ b: Property) -> Bool {
    var same = b
    same.name = a.name
    return same == a
  }

  /// True for a property whose values ``ColumnEditor`` can compute: a single value that is not
  /// a link nor mixed (those would need backlinks).
  private static func computable(_ p: Property) -> Bool {
    p.collection == .single && p.type != .object && p.type != .mixed
  }

  /// Follows the stages of `c` from the source layout; nil when a stage deletes objects or
  /// runs a program (those need the rewrite).
  static func finalLayout(_ c: ClassProgram, sourceCount: Int) -> FinalLayout? {
    var layout = (0..<sourceCount).map(Origin.source)
    var reads: Set<Int>? = []
    var orderSensitive = false
    // The source columns behind positions of the current layout that code reads.
    func read(_ positions: Set<Int>?) {
      guard let positions else {
        reads = nil
        return
      }
      for p in positions where p < layout.count {
        if case .source(let i) = layout[p] { reads?.insert(i) }
      }
    }
    func from(_ o: Origin) -> Int? {
      switch o {
      case .source(let i): return i
      case .computed(let f): return f
      case .constant: return nil
      }
    }
    for stage in c.stages {
      switch stage {
      case .rename: continue
      case .insert(let at, let value): layout.insert(.constant(value), at: min(at, layout.count))
      case .remove(let at): if at < layout.count { layout.remove(at: at) }
      case .delete, .exec: return nil
      case .transform(let t):
        for target in t.targets {
          read(target.expression.readsOld)
          if target.expression.isOrderSensitive { orderSensitive = true }
        }
        if let filter = t.filter {
          read(filter.readsOld)
          if filter.isOrderSensitive { orderSensitive = true }
          // Objects the filter skips keep the values they have.
          read(Set(t.targets.map(\.index)))
        }
        for _ in t.appended { layout.append(.computed(from: nil)) }
        for target in t.targets where target.index < layout.count {
          layout[target.index] = .computed(from: from(layout[target.index]))
        }
        for (i, _) in t.retyped where i < layout.count { layout[i] = .computed(from: from(layout[i])) }
      case .reconcile(let sources):
        var out: [Origin] = []
        for s in sources {
          switch s {
          case .constant(let v): out.append(.constant(v))
          case .copy(let i, let replacement):
            let origin: Origin = i < layout.count ? layout[i] : .constant(.null)
            guard let replacement else {
              out.append(origin)
              continue
            }
            switch origin {
            case .constant(let v): out.append(.constant(v.isNull ? replacement : v))
            case .source(let s):
              // Nulls become the replacement: computed per object.
              reads?.insert(s)
              out.append(.computed(from: s))
            case .computed: out.append(origin)
            }
          }
        }
        layout = out
      }
    }
    guard layout.count == c.finalSchema.properties.count else { return nil }
    return FinalLayout(origins: layout, reads: reads, orderSensitive: orderSensitive)
  }

  /// The constant converted to the property's type, or nil when it cannot be stored as is.
  private static func constantValue(_ value: RealmValue, for p: Property) -> RealmValue? {
    guard p.collection == .single else { return ColumnEditor.isEmptyCollection(value) ? .null : nil }
    if value.isNull { return p.isOptional || p.type == .mixed ? .null : nil }
    return try? TypedLeafEncoder.coerced(value, to: p.type)
  }

  /// Throws unless the cluster leaves of each table `plan` changes hold the objects the
  /// table's count says: the in-place commit keeps the tree's counts, and a dry run reports
  /// them (the commit itself checks too, ``ColumnEditor``).
  static func requireObjectCounts(of plan: ColumnChangePlan, in group: Group, path: String) throws {
    for name in plan.columns.keys {
      if let table = group.table(named: name) { try requireObjectCount(of: table, in: group, path: path) }
    }
  }

  /// ``RealmFormat/Group/requireObjectCount(of:)``, its error naming the file at `path`.
  static func requireObjectCount(of table: Table, in group: Group, path: String) throws {
    do { try group.requireObjectCount(of: table) } catch let error as FormatError { throw StorageError.corrupt(path: path, error) }
  }

  /// The dry run of the column path: computes and encodes everything `plan` commits, with the
  /// code and in the order of the commit, into a sink that only counts, so that whatever the
  /// commit would fail on fails here too.
  static func checkColumnsInPlace(_ plan: ColumnChangePlan, group: Group) throws {
    var sink = CountingNodeSink()
    // Every value computed and encoded; a full-text index is built by the commit alone
    // (nothing in building one fails on strings that encode).
    let columns = try ColumnEditor.apply(plan.columns, to: group, sink: &sink, buildingFullTextIndexes: false)
    _ = try MetadataEditor.apply(plan.metadata, to: group, tableTops: columns.tableTops, sink: &sink)
  }

  /// The column path of a run: the object counts checked, then (unless it is a dry run) the
  /// backup and the commit. The commit computes every value inside its transaction before it
  /// commits, and a transaction writes nothing over the file's bytes before its commit (nodes
  /// placed in free space are held in memory, appended ones are truncated away by an abort,
  /// ``RealmStorage/WriteTransaction``): a value error leaves the file byte for byte as it was,
  /// and the backup this run made is removed.
  static func writeColumnsInPlace(
    _ plan: ColumnChangePlan, group: Group, path: String, lock: FileLock, options: MigrationOptions
  ) throws {
    try requireObjectCounts(of: plan, in: group, path: path)
    guard !options.dryRun else { return try checkColumnsInPlace(plan, group: group) }
    try FileCopy.backup(path, to: options.backupPath)
    try commitColumnsInPlace(path: path, plan: plan, lock: lock, options: options) {
      FileCopy.removeBackup(options.backupPath)
    }
  }

  /// Commits `plan` in one write transaction: columns first, then table renames and the version.
  /// `aborted` runs when the transaction is abandoned before its commit began (nothing of it
  /// was written).
  static func commitColumnsInPlace(
    path: String, plan: ColumnChangePlan, lock: FileLock, options: MigrationOptions, aborted: () -> Void = {}
  ) throws {
    let tx = try WriteTransaction.begin(path: path, options: transactionOptions(lock: lock, options: options))
    var committing = false
    do {
      let current = try Group(reader: tx.reader)
      var sink = tx
      let columns = try ColumnEditor.apply(plan.columns, to: current, sink: &sink)
      let meta = try MetadataEditor.apply(plan.metadata, to: current, tableTops: columns.tableTops, sink: &sink)
      try tx.throwDeferredError()
      for r in columns.replaced + meta.replaced { try tx.free(r) }
      for r in columns.freedDeep { try tx.freeDeep(r) }
      committing = true
      _ = try tx.commit(tableNames: meta.tableNames, tables: meta.tables)
    } catch {
      tx.abort()
      if !committing { aborted() }
      throw error
    }
  }
}
