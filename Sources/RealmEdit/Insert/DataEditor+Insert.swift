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
    let target = try InsertTarget(path: path, options: options)
    defer { target.release() }
    return try insert(try input(target.schema), into: target, mode: mode, stopwatch: stopwatch)
  }

  /// Inserts (or upserts) the objects of a JSON Lines file in the dump's shape, as
  /// ``insert(path:mode:options:input:)`` does with its objects.
  ///
  /// The file is locked and opened once, and the input decoded once (with the exception
  /// below); then the insert is streamed, or written by the general path (in place, or by the
  /// rewrite), under the same lock, through the same open file.
  ///
  /// A plain insert of new objects of one class without `$key` that link nowhere, into a
  /// table they can be appended to, is streamed: the lines are decoded on every core and each
  /// cluster of 256 objects is encoded as it completes, into an append-only write transaction;
  /// the new primary keys are merged into the existing search index. Memory then does not grow
  /// with the input. Any line that does not fit (another class, a `$key`, a link, a missing
  /// required property, a value of the wrong type, a repeated primary key) drops the
  /// transaction unwritten, which leaves the file byte for byte as it was, and hands the
  /// objects decoded so far to the general path, which decodes the rest and does the insert
  /// with its checks and messages. The objects are kept for that: every one from an input that
  /// cannot be read twice (a pipe), the first 16,384 of a file; a file that hands over after
  /// those is read again, under the same lock.
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
    let stopwatch = Stopwatch()
    let target = try InsertTarget(path: path, options: options)
    defer { target.release() }
    let outcome: StreamOutcome
    do {
      outcome = try streamed(jsonLines: data, into: target, upsert: mode == .upsert, stopwatch: stopwatch)
    } catch {
      // A line that does not decode: the transaction is aborted, and no backup is left.
      target.dropBackup()
      throw error
    }
    switch outcome {
    case .done(let result):
      return result
    case .handedOver(let kept):
      let objects = try kept ?? InsertObject.jsonLines(path: data, schema: target.schema)
      return try insert(objects, into: target, mode: mode, stopwatch: stopwatch)
    }
  }

  /// The streamed append (and upsert) alone: nil when the input does not fit it (nothing is
  /// written then, and the file is as it was).
  static func streamingAppend(path: String, jsonLines data: String, upsert: Bool, options: MigrationOptions) throws -> EditResult? {
    let target = try InsertTarget(path: path, options: options)
    defer { target.release() }
    do {
      guard case .done(let result) = try streamed(jsonLines: data, into: target, upsert: upsert, stopwatch: Stopwatch()) else {
        target.dropBackup()
        return nil
      }
      return result
    } catch is InputError {
      // A bad line: the general path reports it.
      target.dropBackup()
      return nil
    }
  }

  /// What the streamed attempt came to.
  enum StreamOutcome {
    /// The insert is done (written, or counted in a dry run).
    case done(EditResult)
    /// A line did not fit: the file is as it was; the objects decoded, or nil when the input
    /// must be read again.
    case handedOver([InsertObject]?)
  }

  /// Streams the lines into `target` as far as they fit it (``StreamedAppend``).
  static func streamed(jsonLines data: String, into target: InsertTarget, upsert: Bool, stopwatch: Stopwatch) throws -> StreamOutcome {
    let options = target.options
    let decoder = CanonicalDecoder(schema: target.schema, missingProperties: .allow)
    var lines = ParallelLineDecoder(decoder: decoder, path: data)
    lines.progress = options.progress
    var handOver = StreamedAppend.HandOver(input: data)
    let appended: StreamedAppend
    if options.dryRun {
      let outcome = try StreamedAppend.run(lines, schema: target.schema, upsert: upsert, handOver: &handOver) {
        (target.group, CountingNodeSink())
      }
      guard let (a, _) = outcome else { return .handedOver(handOver.objects) }
      appended = a
    } else {
      // Append-only: when a line does not fit, the transaction is aborted there and the file
      // is left byte for byte as it was. It begins (after the backup) at the first line,
      // while the next ones are decoded.
      var commit: InPlaceCommit?
      do {
        let outcome = try StreamedAppend.run(lines, schema: target.schema, upsert: upsert, handOver: &handOver) {
          () throws -> (Group, WriteTransaction) in
          let c = try target.begin(appendOnly: true)
          commit = c
          return (c.group, c.transaction)
        } abandon: {
          commit?.abort()
          commit = nil
        }
        guard let (a, written) = outcome, let commit else {
          commit?.abort()
          return .handedOver(handOver.objects)
        }
        if let result = a.result {
          var sink = written
          try commit.commit([(a.slot, result)], sink: &sink)
        } else {
          // An upsert that changes nothing.
          commit.abort()
          target.dropBackup()
        }
        appended = a
      } catch {
        commit?.abort()
        throw error
      }
    }
    var counts = EditResult.ClassCounts(name: appended.className)
    counts.objectsBefore = appended.objectsBefore
    counts.objectsAfter = appended.objectsBefore + appended.count
    counts.inserted = appended.count
    counts.updated = appended.updated
    let writePath: MigrationResult.WritePath = appended.updated > 0 ? .objects : appended.count > 0 ? .append : .none
    var result = EditResult(
      path: target.path, schemaVersion: target.schema.schemaVersion, fileFormat: target.group.fileFormat, writePath: writePath,
      dryRun: options.dryRun, classes: [counts], seconds: stopwatch.elapsedSeconds)
    result.streamed = true
    return .done(result)
  }

  /// The general path: every object checked against the file (the first problem is thrown
  /// with its location, and the file is as it was), then the new and changed objects written
  /// in place (appended, or their leaves changed) where they can be, else by the rewrite.
  static func insert(_ objects: [InsertObject], into target: InsertTarget, mode: InsertMode, stopwatch: Stopwatch) throws -> EditResult {
    let (path, options, group, fileSchema) = (target.path, target.options, target.group, target.schema)
    var batch = InsertBatch(group: group, schema: fileSchema, mode: mode)
    do {
      // The file's keys are walked here: a damaged file is named like any other.
      try namingFile(path) { try batch.add(objects) }
      try batch.assignKeys()
      try batch.checkLinks()
      try batch.dropUnchangedUpdates()
    } catch {
      // A refused input leaves no backup (the streamed attempt may have made it).
      target.dropBackup()
      throw error
    }

    let counts = batch.counts()
    var writePath = MigrationResult.WritePath.none
    let edits = batch.appendPlan().map(InPlaceEdits.append) ?? batch.updatePlan().map(InPlaceEdits.update)
    if !counts.contains(where: { $0.inserted > 0 || $0.updated > 0 }) {
      target.dropBackup()
    } else if let edits, try writeInPlace(edits, into: target) {
      if case .append = edits { writePath = .append } else { writePath = .objects }
    } else {
      writePath = .rewrite
      // Saturating: the other classes' counts are the file's unverified word.
      let total = fileSchema.classes.reduce(objects.count) { total, cls in
        let n = group.table(forClass: cls.name).map { $0.isEmbedded ? 0 : max($0.objectCount, 0) } ?? 0
        return total.addingReportingOverflow(n).overflow ? .max : total + n
      }
      options.progress?.setTotal(total)
      // The rewrite keeps the file's format (issue 16).
      let format = WritableFileFormat.target(rewriting: group, requested: options.fileFormat)
      if options.dryRun {
        let builder = try RealmFileBuilder(schema: fileSchema, fileFormat: format, sink: CountingNodeSink())
        try batch.write(into: builder, progress: options.progress)
        _ = try builder.finish()
      } else {
        // The rewrite makes the backup once the new file is complete, unless the streamed
        // attempt made it (of the same bytes: it wrote nothing). A run that fails leaves none.
        var rewriteOptions = options
        if target.isBackedUp { rewriteOptions.backupPath = nil }
        do {
          try Migrator.rewrite(path: path, schema: fileSchema, format: format, lock: target.lock, options: rewriteOptions) { builder in
            try batch.write(into: builder, progress: options.progress)
            return []
          }
        } catch {
          target.dropBackup()
          throw error
        }
      }
    }
    return EditResult(
      path: path, schemaVersion: fileSchema.schemaVersion, fileFormat: group.fileFormat, writePath: writePath,
      dryRun: options.dryRun, classes: counts, seconds: stopwatch.elapsedSeconds)
  }

  /// Writes the edits in place (``InsertBatch/appendPlan()``, ``InsertBatch/updatePlan()``);
  /// false when some value does not encode (the transaction is aborted: the file is as it
  /// was), so that the rewrite reports the first bad one with its location.
  static func writeInPlace(_ edits: InPlaceEdits, into target: InsertTarget) throws -> Bool {
    let n = edits.objectCount
    let options = target.options
    options.progress?.setTotal(n)
    // Every value is encoded once into a sink that only counts before anything is written:
    // what does not encode goes to the rewrite (which reports it) with the file untouched.
    do { try InsertBatch.check(edits, group: target.group) } catch is FormatError { return false }
    if !options.dryRun {
      do {
        try InsertBatch.commit(edits, to: target)
      } catch is FormatError {
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
