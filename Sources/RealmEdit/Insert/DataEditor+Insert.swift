#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import RealmFormat
import RealmJSON
import RealmModel
import RealmStorage
import RealmMigration
import RealmRewrite

extension DataEditor {
  /// Inserts objects into the realm at `path` (or, with ``InsertMode/upsert``, updates the
  /// objects whose primary key, or `$key` for a class without one, exists and inserts the rest).
  ///
  /// `input` is called under the lock with the file's schema and returns the objects in input
  /// order (decoded with `CanonicalDecoder.MissingProperties.allow`: the properties a line
  /// does not give are listed in `DecodedObject.missing`). Every object is checked before
  /// anything is written: required properties, primary keys unique and (without upsert) new,
  /// `$key`s free, link targets present in the file or the input. The first problem is thrown
  /// with its location and property; the file is then untouched.
  ///
  /// New objects without `$key` get the keys Realm gives: the table's sequence continued
  /// (squeezed keys for classes without a primary key), skipping keys in use. Existing objects
  /// keep their keys. The schema and its version do not change.
  public static func insert(
    path: String, mode: InsertMode, options: MigrationOptions = MigrationOptions(),
    input: (Schema) throws -> [InsertObject]
  ) throws -> EditResult {
    let stopwatch = Stopwatch()
    let (lock, group, fileSchema) = try openForEdit(path: path, options: options)
    defer { lock.release() }
    let objects = try input(fileSchema)
    var batch = InsertBatch(group: group, schema: fileSchema, mode: mode)
    // The file's keys are walked here: a damaged file is named like any other.
    try namingFile(path) { try batch.add(objects) }
    try batch.assignKeys()
    try batch.checkLinks()
    try batch.dropUnchangedUpdates()

    let counts = batch.counts()
    var writePath = MigrationResult.WritePath.none
    let edits = batch.appendPlan().map(InPlaceEdits.append) ?? batch.updatePlan().map(InPlaceEdits.update)
    if counts.contains(where: { $0.inserted > 0 || $0.updated > 0 }), let edits,
      try writeInPlace(edits, group: group, path: path, lock: lock, options: options)
    {
      if case .append = edits { writePath = .append } else { writePath = .objects }
    } else if counts.contains(where: { $0.inserted > 0 || $0.updated > 0 }) {
      writePath = .rewrite
      // Saturating: the other classes' counts are the file's unverified word.
      let total = fileSchema.classes.reduce(objects.count) { total, cls in
        let n = group.table(forClass: cls.name).map { $0.isEmbedded ? 0 : max($0.objectCount, 0) } ?? 0
        return total.addingReportingOverflow(n).overflow ? .max : total + n
      }
      options.progress?.setTotal(total)
      if options.dryRun {
        let builder = try RealmFileBuilder(
          schema: fileSchema, fileFormat: WritableFileFormat.target(rewriting: group, requested: options.fileFormat), sink: CountingNodeSink())
        try batch.write(into: builder, progress: options.progress)
        _ = try builder.finish()
      } else {
        try FileCopy.backup(path, to: options.backupPath)
        // The rewrite keeps the file's format (issue 16).
        let format = WritableFileFormat.target(rewriting: group, requested: options.fileFormat)
        try Migrator.rewrite(path: path, schema: fileSchema, format: format, lock: lock, options: options) { builder in
          try batch.write(into: builder, progress: options.progress)
          return []
        }
      }
    }
    return EditResult(
      path: path, schemaVersion: fileSchema.schemaVersion, fileFormat: group.fileFormat, writePath: writePath,
      dryRun: options.dryRun, classes: counts, seconds: stopwatch.elapsedSeconds)
  }

  /// Inserts (or upserts) the objects of a JSON Lines file in the dump's shape, as
  /// ``insert(path:mode:options:input:)`` does with its objects.
  ///
  /// A plain insert of new objects of one class without `$key` that link nowhere, into a
  /// table they can be appended to, is streamed: the lines are decoded on every core and each
  /// cluster of 256 objects is encoded as it completes, into the open write transaction; the
  /// new primary keys are merged into the existing search index. Memory then does not grow
  /// with the input. Any line that does not fit (another class, a `$key`, a link, a missing
  /// required property, a value of the wrong type, a repeated primary key, a bad line) drops
  /// the transaction unwritten and the general path does the insert from the start, with its
  /// checks and messages.
  ///
  /// An upsert into a class with an int primary key is streamed the same way: each line's
  /// primary key is looked up among the file's as it is decoded; the lines of existing objects,
  /// in key order, change their cluster leaf a leaf at a time (only the columns whose values
  /// differ), and the others are appended. A line that does not fit (besides the above: an
  /// existing object out of key order or given twice, a link, mixed or collection value for an
  /// existing object) hands the upsert to the general path in the same way.
  /// ``EditResult/streamed`` says which path did the work.
  public static func insert(
    path: String, jsonLines data: String, mode: InsertMode, options: MigrationOptions = MigrationOptions()
  ) throws -> EditResult {
    if let result = try streamingAppend(path: path, jsonLines: data, upsert: mode == .upsert, options: options) { return result }
    return try insert(path: path, mode: mode, options: options) { schema in try InsertObject.jsonLines(path: data, schema: schema) }
  }

  /// The streamed append (and upsert), nil when the input does not fit it (nothing is written then).
  static func streamingAppend(path: String, jsonLines data: String, upsert: Bool, options: MigrationOptions) throws -> EditResult? {
    let stopwatch = Stopwatch()
    let (lock, group, fileSchema) = try openForEdit(path: path, options: options)
    defer { lock.release() }
    let decoder = CanonicalDecoder(schema: fileSchema, missingProperties: .allow)
    var lines = ParallelLineDecoder(decoder: decoder, path: data)
    lines.progress = options.progress
    var appended: StreamedAppend?
    if options.dryRun {
      appended = try StreamedAppend.run(lines, schema: fileSchema, upsert: upsert) { (group, CountingNodeSink()) }?.0
    } else {
      try FileCopy.backup(path, to: options.backupPath)
      // Append-only: when a line does not fit, the file is left byte for byte as it was. The
      // transaction begins at the first line, while the next ones are decoded.
      var commit: InPlaceCommit?
      do {
        let outcome = try StreamedAppend.run(lines, schema: fileSchema, upsert: upsert) { () throws -> (Group, WriteTransaction) in
          let c = try InPlaceCommit(path: path, lock: lock, options: options, appendOnly: true)
          commit = c
          return (c.group, c.transaction)
        }
        if let (a, written) = outcome, let result = a.result, let commit {
          var sink = written
          try commit.commit([(a.slot, result)], sink: &sink)
        } else {
          commit?.abort()
          // The general path makes the backup again; so does an upsert that changes nothing.
          if let backup = options.backupPath { unlink(backup) }
        }
        appended = outcome?.0
      } catch {
        commit?.abort()
        throw error
      }
    }
    guard let appended else { return nil }
    var counts = EditResult.ClassCounts(name: appended.className)
    counts.objectsBefore = appended.objectsBefore
    counts.objectsAfter = appended.objectsBefore + appended.count
    counts.inserted = appended.count
    counts.updated = appended.updated
    let writePath: MigrationResult.WritePath = appended.updated > 0 ? .objects : appended.count > 0 ? .append : .none
    var result = EditResult(
      path: path, schemaVersion: fileSchema.schemaVersion, fileFormat: group.fileFormat, writePath: writePath,
      dryRun: options.dryRun, classes: [counts], seconds: stopwatch.elapsedSeconds)
    result.streamed = true
    return result
  }

  /// Writes the edits in place (``InsertBatch/appendPlan()``, ``InsertBatch/updatePlan()``);
  /// false when some value does not encode, so that the rewrite reports the first bad one
  /// with its location.
  static func writeInPlace(
    _ edits: InPlaceEdits, group: Group, path: String, lock: FileLock, options: MigrationOptions
  ) throws -> Bool {
    let n = edits.objectCount
    options.progress?.setTotal(n)
    if options.dryRun {
      do { try InsertBatch.check(edits, group: group) } catch is FormatError { return false }
    } else {
      try FileCopy.backup(path, to: options.backupPath)
      do {
        try InsertBatch.commit(edits, path: path, lock: lock, options: options)
      } catch is FormatError {
        // The rewrite makes the backup again.
        if let backup = options.backupPath { unlink(backup) }
        return false
      }
    }
    options.progress?.add(n)
    return true
  }

  /// Runs `body`, which reads the file at `path`: a damaged file is named as every command
  /// names it ("'x.realm' is not a valid Realm file: …").
  static func namingFile<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as FormatError { throw StorageError.corrupt(path: path, error) }
  }
}
