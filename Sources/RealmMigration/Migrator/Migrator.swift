import RealmFormat
import RealmModel
import RealmStorage
import RealmJSON
import RealmRewrite

/// How `migrate` treats the file.
public struct MigrationOptions: Sendable {
  /// Do everything but the final write.
  public var dryRun = false
  /// Keep a copy of the original here before writing (must not exist).
  public var backupPath: String?
  /// Replace the file by an empty one with the target schema when a migration is needed.
  public var resetIfNeeded = false
  /// Clock and random source for `now()`, `uuid()`, `objectId()`.
  public var environment = ExpressionEnvironment()
  /// The key of an encrypted realm: the file is read decrypted and every write path (in-place
  /// commits, the rewrite, the reset) keeps it encrypted with the same key.
  public var encryptionKey: EncryptionKey?
  /// Test hook for crash and error injection in the write.
  public var faultInjection: (@Sendable (FaultPoint) -> FaultAction)?
  /// Bytes buffered between writes of the new file or transaction (tests lower it so that a
  /// write is made of many system calls to interrupt).
  public var writeBufferSize = 1 << 20
  /// The most bytes of new nodes an in-place transaction holds in memory for the free space it
  /// reuses (`WriteTransaction.Options.heldNodesLimit`); past it, new nodes are appended.
  /// Tests lower it so that one commit does both.
  public var heldNodesLimit = WriteTransaction.Options().heldNodesLimit
  /// Commit column additions, removals and per-object computed columns (transforms, type
  /// changes) in place when the program allows it (see `Migrator+Columns.swift`); false
  /// forces the rewrite (tests compare both paths).
  public var inPlaceColumnChanges = true
  /// Counts the objects streamed through a rewrite or computed by the column path (the
  /// command line draws it).
  public var progress: ProgressCounter?
  /// The file format to write; nil keeps the file's (21 is written as 22; formats 2-11, which
  /// have no writer, become 24). A format other than the file's takes the rewrite.
  public var fileFormat: WritableFileFormat?
  /// Creates the defaults.
  public init() {}
}

/// What a migration did.
public struct MigrationResult: Sendable {
  /// How the file was written.
  public enum Method: String, Sendable {
    /// Nothing needed to change.
    case unchanged
    /// Names and version changed in place (copy-on-write commit).
    case inPlace
    /// The file was rewritten and atomically replaced.
    case rewritten
    /// The file was replaced by an empty one (`--reset-if-needed`).
    case reset
  }
  /// Which write path the migrator took (see docs/writing.md).
  public enum WritePath: String, Sendable {
    /// Nothing was (or would be) written.
    case none
    /// Names and the version only, committed in place.
    case metadata
    /// Only the changed columns (added, removed, computed by transforms), committed in place.
    case columns
    /// New objects appended as new cluster leaves, committed in place (`insert`).
    case append
    /// Only the cluster leaves holding changed objects (and the nodes above them) written
    /// again, committed in place (`insert --upsert`).
    case objects
    /// Every object streamed into a new file that replaced the original.
    case rewrite
    /// An empty file with the target schema replaced the original.
    case reset
  }
  /// The file.
  public var path: String
  /// Schema version before (nil = unversioned).
  public var fromVersion: Int64?
  /// Schema version after.
  public var toVersion: Int64
  /// How the file was written.
  public var method: Method
  /// The file format before.
  public var fromFileFormat: Int
  /// The file format after: the file's own unless `fileFormat` asked for another, or the file
  /// had a format realmctl does not write (2-11: written as 24, 21: as 22).
  public var toFileFormat: Int
  /// True when the file keeps its format (also for a file left unchanged).
  public var keptFileFormat: Bool { fromFileFormat == toFileFormat }
  /// True when an old file (formats 2-11) was written as format 24: apps on the SDK that wrote
  /// it can no longer open it.
  public var leavesOldSDKs: Bool { fromFileFormat < 20 && toFileFormat != fromFileFormat }
  /// The write path taken (or that would be taken, for a dry run).
  public var writePath: WritePath
  /// True for `--dry-run` (nothing was written).
  public var dryRun: Bool
  /// Per class.
  public var classes: [ClassReport]
  /// Wall-clock seconds.
  public var seconds: Double
}

/// Applies migration plans to files: the command layer's entry point for `migrate` and
/// `rename-property`.
public enum Migrator {
  /// Migrates the realm at `path` with `plan`.
  ///
  /// Holds the realm's lock from the first read to the end of the write; refuses a realm
  /// another process has open. Every error leaves the file exactly as it was.
  public static func migrate(path: String, plan: MigrationPlan, options: MigrationOptions = MigrationOptions()) throws -> MigrationResult {
    let stopwatch = Stopwatch()
    let (lock, file, fileSchema) = try openForEdit(path: path, options: options)
    defer { lock.release() }
    let group = file.group
    let engine = MigrationExpressionEngine(environment: options.environment)
    engine.setResolver(GroupResolver(group: group))
    engine.setFile(group: group, schema: fileSchema)
    let planner = MigrationPlanner(
      expressions: engine,
      decodeDefault: { json, property, jsonPath in
        do {
          return try CanonicalDecoder(schema: plan.targetSchema).decodeValue(json, of: property, line: 0, path: property.name)
        } catch let e as CanonicalDecodingError {
          throw MigrationError.plan(jsonPath, e.message)
        }
      })
    let target = WritableFileFormat.target(rewriting: group, requested: options.fileFormat)
    // The in-place paths write nodes of the file's own format into it.
    let inPlaceAllowed = target.rawValue == group.fileFormat
    func result(_ method: MigrationResult.Method, _ writePath: MigrationResult.WritePath, _ classes: [ClassReport]) -> MigrationResult {
      MigrationResult(
        path: path, fromVersion: fileSchema.schemaVersion, toVersion: plan.schemaVersion, method: method,
        fromFileFormat: group.fileFormat,
        toFileFormat: method == .rewritten || method == .reset ? target.rawValue : group.fileFormat,
        writePath: writePath, dryRun: options.dryRun, classes: classes, seconds: stopwatch.elapsedSeconds)
    }

    if options.resetIfNeeded && needsMigration(fileSchema, plan) {
      if !options.dryRun {
        try rewrite(path: path, schema: plan.targetSchema, format: target, lock: lock, options: options) { _ in [] }
      }
      return result(.reset, .reset, plan.targetSchema.classes.map { var r = ClassReport(name: $0.name); r.isNew = true; return r })
    }

    let program = try planner.program(for: plan, fileSchema: fileSchema)
    // Reports of programs that leave the objects as they are: every count is the table's.
    func unchangedCounts() -> [ClassReport] {
      var reports = program.classes.map { $0.report }
      for i in reports.indices {
        if let t = group.table(forClass: reports[i].renamedFrom ?? reports[i].name) {
          reports[i].objectsBefore = t.objectCount
          reports[i].objectsAfter = t.objectCount
        }
      }
      return reports
    }
    if program.isNoOp && (inPlaceAllowed || options.fileFormat == nil) { return result(.unchanged, .none, unchangedCounts()) }

    if program.isMetadataOnly, inPlaceAllowed,
      let edits = metadataEdits(program, fileSchema), MetadataEditor.canApply(edits, to: group)
    {
      // The new version keeps every tree as it is, counts included: they must be true.
      for table in group.tables where table.className != nil { try requireObjectCount(of: table, in: group, path: path) }
      let reports = unchangedCounts()
      try checkInPlace(edits, group: group)
      if !options.dryRun {
        try FileCopy.backup(path, to: options.backupPath)
        try commitInPlace(path: path, edits: edits, group: group, lock: lock, options: options)
      }
      return result(.inPlace, .metadata, reports)
    }

    if options.inPlaceColumnChanges, inPlaceAllowed,
      let columnPlan = columnChangePlan(program, group: group, progress: options.progress)
    {
      var reports = program.classes.map { $0.report }
      for (i, c) in program.classes.enumerated() {
        guard let t = group.table(forClass: c.sourceClass ?? c.finalSchema.name) else { continue }
        reports[i].objectsBefore = t.objectCount
        reports[i].objectsAfter = t.objectCount
        // Like the rewrite: every object of a class whose columns change counts as touched.
        if !c.isUnchanged { reports[i].objectsTouched = t.objectCount }
      }
      try writeColumnsInPlace(columnPlan, group: group, path: path, lock: lock, options: options)
      return result(.inPlace, .columns, reports)
    }

    let source = GroupSource(group: group, path: path)
    if options.dryRun {
      let builder: RealmFileBuilder<CountingNodeSink> = try RealmFileBuilder(
        schema: program.finalSchema, fileFormat: target, sink: CountingNodeSink())
      let executor = MigrationExecutor(program: program, source: source)
      executor.progress = options.progress
      let reports = try executor.run(into: BuilderSink<CountingNodeSink>(builder))
      _ = try builder.finish()
      return result(.rewritten, .rewrite, reports)
    }
    var reports: [ClassReport] = []
    try rewrite(path: path, schema: program.finalSchema, format: target, lock: lock, options: options) { builder in
      let executor = MigrationExecutor(program: program, source: source)
      executor.progress = options.progress
      return try executor.run(into: BuilderSink<FileNodeSink>(builder))
    } reportsOut: { reports = $0 }
    return result(.rewritten, .rewrite, reports)
  }

  /// Takes the exclusive lock of the realm at `path` (the caller releases it), opens it
  /// (`forWriting`: keeping its descriptor for the write, `RealmFile.open(path:key:forWriting:)`),
  /// refuses a file it cannot write (``checkWritable(_:path:)``), and reads its schema: the
  /// start of every migration and edit.
  package static func openForEdit(
    path: String, options: MigrationOptions, forWriting: Bool = false
  ) throws -> (lock: FileLock, file: RealmFile, schema: Schema) {
    let (lock, file) = try RealmFile.openLocked(path: path, key: options.encryptionKey, forWriting: forWriting)
    do {
      try checkWritable(file.group, path: path)
      do { return (lock, file, try file.group.schema()) } catch { throw StorageError.from(error, path: path) }
    } catch {
      lock.release()
      throw error
    }
  }

  /// Refuses files whose rewrite would lose something realmctl does not carry over: a sync
  /// history (the file belongs to a synced realm) or tables that are not Realm classes.
  package static func checkWritable(_ group: Group, path: String) throws {
    switch group.historyType {
    case .syncClient, .syncServer:
      throw MigrationError(
        .unsupported, "'\(path)' is a synced realm (history type \(group.historyType)); realmctl migrates local realms only")
    default: break
    }
    let foreign = group.tables.map(\.name).filter {
      !$0.hasPrefix(FormatConstants.classPrefix) && $0 != FormatConstants.metadataTable && !$0.isEmpty
    }
    if !foreign.isEmpty {
      throw MigrationError(
        .unsupported,
        "'\(path)' has tables that are not Realm classes (\(foreign.map { "'\($0)'" }.joined(separator: ", "))); realmctl migrates Realm SDK files only")
    }
  }

  /// True when the SDKs would need a migration (or refuse) for this file and plan.
  static func needsMigration(_ fileSchema: Schema, _ plan: MigrationPlan) -> Bool {
    guard let v = fileSchema.schemaVersion, v == plan.schemaVersion else { return true }
    return SchemaComparison.changes(from: fileSchema, to: plan.targetSchema).contains(where: \.needsMigration)
  }

  /// The in-place edits of a metadata-only program, or nil when it has none that can be named.
  static func metadataEdits(_ program: MigrationProgram, _ fileSchema: Schema) -> MetadataEditor.Edits? {
    var edits = MetadataEditor.Edits()
    for c in program.classes {
      guard let source = c.sourceSchema else { return nil }
      let table = FormatConstants.classPrefix + source.name
      if source.name != c.finalSchema.name { edits.tableRenames[table] = FormatConstants.classPrefix + c.finalSchema.name }
      guard source.properties.count == c.finalSchema.properties.count else { return nil }
      var renames: [String: String] = [:]
      for (old, new) in zip(source.properties, c.finalSchema.properties) where old.name != new.name {
        renames[old.name] = new.name
      }
      if !renames.isEmpty { edits.columnRenames[table] = renames }
    }
    if program.fileVersion != program.targetVersion {
      guard program.fileVersion != nil else { return nil }
      edits.schemaVersion = program.targetVersion
    }
    return edits
  }

  /// The options of every in-place write transaction of a migration: the held lock, the
  /// encryption key, the test hooks. Every in-place commit path must begin its transaction
  /// with these, so that an encrypted realm stays encrypted.
  package static func transactionOptions(lock: FileLock, options: MigrationOptions) -> WriteTransaction.Options {
    var txOptions = WriteTransaction.Options()
    txOptions.lock = lock
    txOptions.encryptionKey = options.encryptionKey
    txOptions.faultInjection = options.faultInjection
    txOptions.writeBufferSize = options.writeBufferSize
    txOptions.heldNodesLimit = options.heldNodesLimit
    return txOptions
  }

  /// Encodes the metadata edits into a sink that only counts: what the commit would fail on
  /// fails here, before anything is written (and is the dry run's check).
  static func checkInPlace(_ edits: MetadataEditor.Edits, group: Group) throws {
    var sink = CountingNodeSink()
    _ = try MetadataEditor.apply(edits, to: group, sink: &sink)
  }

  static func commitInPlace(path: String, edits: MetadataEditor.Edits, group: Group, lock: FileLock, options: MigrationOptions) throws {
    let tx = try WriteTransaction.begin(path: path, options: transactionOptions(lock: lock, options: options))
    do {
      let current = try Group(reader: tx.reader)
      var sink = tx
      let edit = try MetadataEditor.apply(edits, to: current, sink: &sink)
      try tx.throwDeferredError()
      for r in edit.replaced { try tx.free(r) }
      _ = try tx.commit(tableNames: edit.tableNames, tables: edit.tables)
    } catch {
      tx.abort()
      throw error
    }
  }

  /// Writes a complete new file with `fill` and atomically replaces the realm with it. The
  /// backup (`options.backupPath`) is made once the new file is complete, just before it
  /// replaces the realm: a run that fails leaves no backup behind.
  package static func rewrite(
    path: String, schema: Schema, format: WritableFileFormat = .current, lock: FileLock, options: MigrationOptions,
    _ fill: (RealmFileBuilder<FileNodeSink>) throws -> [ClassReport],
    reportsOut: ([ClassReport]) -> Void = { _ in }
  ) throws {
    try AtomicFileReplacement.replace(
      path: path, lock: lock, encryptionKey: options.encryptionKey, faultInjection: options.faultInjection
    ) { output in
      let builder = try RealmFileBuilder(
        schema: schema, fileFormat: format, sink: try FileNodeSink(output: output, bufferSize: options.writeBufferSize))
      reportsOut(try fill(builder))
      let finished = try builder.finish()
      // The builder appends nothing after finish(), so its sink's state can be taken over.
      var sink = builder.sink
      try sink.finish(header: finished.header, fileSize: finished.fileSize)
      try FileCopy.backup(path, to: options.backupPath)
    }
  }
}
