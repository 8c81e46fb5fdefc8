#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import RealmFormat
import RealmModel
import RealmStorage

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
    let start = Migrator.monotonicSeconds()
    let (lock, group, fileSchema) = try openForEdit(path: path, options: options)
    defer { lock.release() }
    let objects = try input(fileSchema)
    var batch = InsertBatch(group: group, schema: fileSchema, mode: mode)
    try batch.add(objects)
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
      let total = fileSchema.classes.reduce(0) { $0 + (group.table(forClass: $1.name).map { $0.isEmbedded ? 0 : $0.objectCount } ?? 0) }
      options.progress?.setTotal(total + objects.count)
      if options.dryRun {
        let builder = try RealmFileBuilder(
          schema: fileSchema, fileFormat: Migrator.targetFormat(of: group, options: options), sink: CountingNodeSink())
        try batch.write(into: builder, progress: options.progress)
        _ = try builder.finish()
      } else {
        try Migrator.backup(path, to: options.backupPath)
        // The rewrite keeps the file's format (issue 16).
        let format = Migrator.targetFormat(of: group, options: options)
        try Migrator.rewrite(path: path, schema: fileSchema, format: format, lock: lock, options: options) { builder in
          try batch.write(into: builder, progress: options.progress)
          return []
        }
      }
    }
    return EditResult(
      path: path, schemaVersion: fileSchema.schemaVersion, fileFormat: group.fileFormat, writePath: writePath,
      dryRun: options.dryRun, classes: counts, seconds: Migrator.monotonicSeconds() - start)
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
      try Migrator.backup(path, to: options.backupPath)
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
}
