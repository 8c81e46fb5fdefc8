/// The in-place path for column additions and removals (docs/writing.md, "In-place column
/// changes"): programs whose classes keep some of their columns unchanged, in order, and gain
/// new columns holding one constant are committed copy-on-write with ``ColumnEditor`` and
/// ``MetadataEditor`` in one transaction, instead of rewriting the file.
extension Migrator {
  /// The edits of a program the in-place column path can commit.
  struct ColumnChangePlan {
    /// Per table name (before renames): columns removed, added and renamed.
    var columns: [String: ColumnEditor.TableEdit]
    /// Table renames and the schema version.
    var metadata: MetadataEditor.Edits
  }

  /// Where a value of the working layout comes from while the stages are followed.
  private enum Origin: Equatable {
    case source(Int)
    case constant(RealmValue)
  }

  /// The plan for committing `program` in place, or nil when it needs the rewrite: a class is
  /// created or deleted, a stage transforms, deletes or runs a program, a kept property changes
  /// type, optionality, index or order, or a removed or added column is of a kind
  /// ``ColumnEditor`` does not handle (links, primary keys, indexed or non-empty collections).
  static func columnChangePlan(_ program: MigrationProgram, group: Group) -> ColumnChangePlan? {
    guard group.fileFormat == FormatConstants.currentFileFormat, program.deletedClasses.isEmpty else { return nil }
    var metadata = MetadataEditor.Edits()
    var columns: [String: ColumnEditor.TableEdit] = [:]
    for c in program.classes {
      guard let source = c.sourceSchema, c.sourceClass == source.name, !c.becomesEmbedded, !c.becomesTopLevel,
        !c.checkPrimaryKey, source.isEmbedded == c.finalSchema.isEmbedded
      else { return nil }
      guard let layout = finalLayout(c, sourceCount: source.properties.count) else { return nil }
      let final = c.finalSchema.properties
      // The kept columns first, in their source order, then the constants.
      let kept = layout.prefix { if case .source = $0 { return true } else { return false } }
      var previous = -1
      var edit = ColumnEditor.TableEdit()
      var keptSources = Set<Int>()
      for (j, origin) in layout.enumerated() {
        switch origin {
        case .source(let i):
          guard j < kept.count, i > previous else { return nil }
          previous = i
          keptSources.insert(i)
          let old = source.properties[i]
          var same = final[j]
          same.name = old.name
          guard same == old else { return nil }
          if old.name != final[j].name { edit.renamed[old.name] = final[j].name }
          if source.primaryKey == old.name, c.finalSchema.primaryKey != final[j].name { return nil }
        case .constant(let value):
          let p = final[j]
          guard p.type != .object, !p.isIndexed, c.finalSchema.primaryKey != p.name else { return nil }
          guard let v = constantValue(value, for: p) else { return nil }
          edit.added.append(ColumnEditor.NewColumn(property: p, value: v))
        }
      }
      if let pk = source.primaryKey, !keptSources.contains(where: { source.properties[$0].name == pk }) { return nil }
      if source.primaryKey == nil, c.finalSchema.primaryKey != nil { return nil }
      for (i, p) in source.properties.enumerated() where !keptSources.contains(i) {
        guard p.type != .object else { return nil }
        edit.removed.append(p.name)
      }
      let table = FormatConstants.classPrefix + source.name
      if source.name != c.finalSchema.name { metadata.tableRenames[table] = FormatConstants.classPrefix + c.finalSchema.name }
      if !edit.added.isEmpty || !edit.removed.isEmpty {
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
    return ColumnChangePlan(columns: columns, metadata: metadata)
  }

  /// Follows the stages of `c` from the source layout; nil when a stage changes values per object.
  private static func finalLayout(_ c: ClassProgram, sourceCount: Int) -> [Origin]? {
    var layout = (0..<sourceCount).map(Origin.source)
    for stage in c.stages {
      switch stage {
      case .rename: continue
      case .insert(let at, let value): layout.insert(.constant(value), at: min(at, layout.count))
      case .remove(let at): if at < layout.count { layout.remove(at: at) }
      case .transform, .delete, .exec: return nil
      case .reconcile(let sources):
        var out: [Origin] = []
        for s in sources {
          switch s {
          case .constant(let v): out.append(.constant(v))
          case .copy(let i, let replacement):
            let origin: Origin = i < layout.count ? layout[i] : .constant(.null)
            // A source column with nulls and a replacement changes optionality: the property
            // comparison in the caller sends that to the rewrite.
            if let replacement, origin == .constant(.null) { out.append(.constant(replacement)) } else { out.append(origin) }
          }
        }
        layout = out
      }
    }
    return layout.count == c.finalSchema.properties.count ? layout : nil
  }

  /// The constant converted to the property's type, or nil when it cannot be stored as is.
  private static func constantValue(_ value: RealmValue, for p: Property) -> RealmValue? {
    guard p.collection == .single else { return ColumnEditor.isEmptyCollection(value) ? .null : nil }
    if value.isNull { return p.isOptional || p.type == .mixed ? .null : nil }
    return try? TypedLeafEncoder.coerced(value, to: p.type)
  }

  /// Commits `plan` in one write transaction: columns first, then table renames and the version.
  static func commitColumnsInPlace(path: String, plan: ColumnChangePlan, lock: FileLock, options: MigrationOptions) throws {
    let tx = try WriteTransaction.begin(path: path, options: transactionOptions(lock: lock, options: options))
    do {
      let current = try Group(reader: tx.reader)
      var sink = TransactionNodeSink(transaction: tx)
      let columns = try ColumnEditor.apply(plan.columns, to: current, sink: &sink)
      let meta = try MetadataEditor.apply(plan.metadata, to: current, tableTops: columns.tableTops, sink: &sink)
      if let error = sink.error { throw error }
      for r in columns.replaced + meta.replaced { try tx.free(r) }
      for r in columns.freedDeep { try tx.freeDeep(r) }
      _ = try tx.commit(tableNames: meta.tableNames, tables: meta.tables)
    } catch {
      tx.abort()
      throw error
    }
  }
}
