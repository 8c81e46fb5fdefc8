import RealmFormat
import RealmModel
import RealmStorage

/// How `upgrade` treats the file.
public struct UpgradeOptions: Sendable {
  /// Do everything but the final write (the new file is built and counted, not stored).
  public var dryRun = false
  /// Keep a copy of the original here before replacing it (must not exist).
  public var backupPath: String?
  /// Write the upgraded file here (must not exist) and leave the original as it is.
  public var outputPath: String?
  /// Test hook for crash and error injection in the write.
  public var faultInjection: (@Sendable (FaultPoint) -> FaultAction)?
  /// Bytes buffered between writes of the new file.
  public var writeBufferSize = 1 << 20
  /// Counts the bytes written; its total is the size of the original (an estimate).
  public var progress: ProgressCounter?
  /// The key of an encrypted realm: the file is read decrypted and the upgraded file (in place
  /// or at `outputPath`) is encrypted with the same key.
  public var encryptionKey: EncryptionKey?
  /// With `replacesKey`, the key the new file is encrypted with (nil: not encrypted), for
  /// `encrypt`/`decrypt --file-format`.
  public var newEncryptionKey: EncryptionKey?
  /// True when the new file takes `newEncryptionKey` instead of keeping `encryptionKey`.
  public var replacesKey = false
  /// The key the new file is written with.
  var outputKey: EncryptionKey? { replacesKey ? newEncryptionKey : encryptionKey }
  /// The file format to write (`convert --file-format`); 24 by default (`upgrade`).
  public var fileFormat: WritableFileFormat = .current
  /// Creates the defaults.
  public init() {}
}

/// What an upgrade did.
public struct UpgradeResult: Sendable {
  /// The realm.
  public var path: String
  /// Where the upgraded file went (nil: in place).
  public var outputPath: String?
  /// The file format before.
  public var fromFormat: Int
  /// The file format written, or the unchanged format.
  public var toFormat: Int
  /// False when the file was already at the target format (or never written): nothing done.
  public var upgraded: Bool
  /// True for `--dry-run` (nothing was written).
  public var dryRun: Bool
  /// Objects per top-level class.
  public var classes: [(name: String, objects: Int)]
  /// Objects per table that is not a class (files written with Realm Core directly).
  public var otherTables: [(name: String, objects: Int)]
  /// Size of the original, as on disk.
  public var sizeBefore: Int
  /// Size of the new file as on disk, encrypted or not (also computed for a dry run).
  public var sizeAfter: Int
  /// Wall-clock seconds.
  public var seconds: Double
}

/// `realmctl upgrade` and `convert`: rewrites a file as format 24, the format every current
/// SDK opens (from formats 2-23), or as 20, 22 or 23 (from any format, down too), keeping
/// every object key (except in format 20, whose keys derive from the primary keys), with
/// search indexes on primary keys as Realm's own upgrade adds them.
///
/// The objects are read through the `Group` API (which reads every format the same way) and
/// streamed into a `RealmFileBuilder`; the new file replaces the original atomically under
/// the realm's lock (or is created at `--output`), so a crash leaves the old or the new file.
public enum Upgrader {
  /// Upgrades the realm at `path`.
  ///
  /// - Throws: `StorageError` (locked, unreadable, I/O), ``RewriteError`` `unsupported`
  ///   for synced realms, `FormatError` for data the new file cannot hold.
  public static func upgrade(path: String, options: UpgradeOptions = UpgradeOptions()) throws -> UpgradeResult {
    let stopwatch = Stopwatch()
    let (lock, file) = try RealmFile.openLocked(path: path, key: options.encryptionKey)
    defer { lock.release() }
    let group = file.group
    var result = UpgradeResult(
      path: path, outputPath: options.outputPath, fromFormat: group.fileFormat, toFormat: group.fileFormat,
      upgraded: false, dryRun: options.dryRun, classes: [], otherTables: [], sizeBefore: file.fileSize, sizeAfter: file.fileSize, seconds: 0)
    if group.fileFormat == options.fileFormat.rawValue || group.topRef.isNull {
      result.classes = group.tables.compactMap { t in t.className.map { ($0, t.objectCount) } }
      result.seconds = stopwatch.elapsedSeconds
      return result
    }
    switch group.historyType {
    case .syncClient, .syncServer:
      throw RewriteError(
        .unsupported,
        "'\(path)' is a synced realm (it has a Device Sync history); realmctl upgrades local realms only (`realmctl dump` reads its objects)")
    default: break
    }
    let converting = options.fileFormat != .current
    if converting, let obstacle = try firstObstacle(group, path: path, target: options.fileFormat) {
      throw RewriteError(.unsupported, "'\(path)' cannot be converted to file format \(options.fileFormat): \(obstacle)")
    }
    do {
      try write(group, path: path, lock: lock, options: options, into: &result)
    } catch let error as FormatError {
      // Data the new file cannot hold (a damaged file read this far, or a value the target
      // format cannot store): the file is unchanged.
      if converting {
        throw RewriteError(.unsupported, "'\(path)' cannot be converted to file format \(options.fileFormat): \(error.detail)")
      }
      throw StorageError(.corrupt, path: path, "'\(path)' cannot be upgraded: \(error.detail)")
    }
    result.seconds = stopwatch.elapsedSeconds
    return result
  }

  /// The first thing in the file that `target` cannot store, as one sentence ("`Class.property`
  /// is ... (format N and later)"): what no writer can express in that format
  /// (``FormatCompatibility``), then what realmctl does not write in it (a dictionary in
  /// format 20, ``WritableFileFormat/obstacle(for:)``).
  static func firstObstacle(_ group: Group, path: String, target: WritableFileFormat) throws -> String? {
    do {
      if let obstacle = try FormatCompatibility.firstObstacle(in: group, targetFormat: target.rawValue) {
        return obstacle.message
      }
      for c in try group.schema().classes {
        for p in c.properties {
          if let reason = target.obstacle(for: p) { return "`\(c.name).\(p.name)` \(reason)" }
        }
      }
    } catch {
      throw StorageError.from(error, path: path)
    }
    return nil
  }

  /// Writes the new file (or counts it, for a dry run) and fills in `result`.
  private static func write(
    _ group: Group, path: String, lock: FileLock, options: UpgradeOptions, into result: inout UpgradeResult
  ) throws {
    let content = try UpgradeContent(group, path: path)
    options.progress?.setTotal(max(0, group.reader.count - group.freeBytes))
    result.upgraded = true
    result.toFormat = options.fileFormat.rawValue
    result.classes = content.counts.filter { c in content.schema.objectSchema(named: c.name) != nil }
    result.otherTables = content.counts.filter { c in content.plainTables.contains { $0.name == c.name } }
    result.sizeAfter = try rewrite(content, from: group, path: path, lock: lock, options: options)
  }

  /// Writes `content` as a new file: counted only (dry run), created at `outputPath`, or
  /// replacing the realm at `path` atomically under `lock` (after the backup). Returns the new
  /// file's size on disk. `unsync` writes through here too.
  static func rewrite(
    _ content: UpgradeContent, from group: Group, path: String, lock: FileLock, options: UpgradeOptions
  ) throws -> Int {
    var sizeAfter = 0
    if options.dryRun {
      let builder = try RealmFileBuilder(
        schema: content.schema, plainTables: content.plainTables, fileFormat: options.fileFormat, sink: CountingNodeSink())
      try content.copy(from: group, into: builder, path: path)
      sizeAfter = sizeOnDisk(try builder.finish().fileSize, options)
    } else if let output = options.outputPath {
      try AtomicFileCreation.create(path: output, encryptionKey: options.outputKey) { out in
        sizeAfter = sizeOnDisk(try write(content, from: group, to: out, options: options, path: path), options)
      }
    } else {
      try FileCopy.backup(path, to: options.backupPath)
      try AtomicFileReplacement.replace(
        path: path, lock: lock, encryptionKey: options.outputKey, faultInjection: options.faultInjection
      ) { out in
        sizeAfter = sizeOnDisk(try write(content, from: group, to: out, options: options, path: path), options)
      }
    }
    return sizeAfter
  }

  /// The size on disk of a file of `dataSize` bytes: encrypted files add Realm's IV-table
  /// pages and round to whole pages.
  private static func sizeOnDisk(_ dataSize: Int, _ options: UpgradeOptions) -> Int {
    options.outputKey == nil ? dataSize : EncryptionKey.encryptedFileSize(dataSize: dataSize)
  }

  /// Streams the whole content into a new file at `out`; returns its size.
  private static func write(
    _ content: UpgradeContent, from group: Group, to out: AtomicFileReplacement.Output, options: UpgradeOptions, path: String
  ) throws -> Int {
    var fileSink = try FileNodeSink(output: out, bufferSize: options.writeBufferSize)
    fileSink.progress = options.progress
    let builder = try RealmFileBuilder(
      schema: content.schema, plainTables: content.plainTables, fileFormat: options.fileFormat, sink: fileSink)
    try content.copy(from: group, into: builder, path: path)
    let finished = try builder.finish()
    var sink = builder.sink
    try sink.finish(header: finished.header, fileSize: finished.fileSize)
    return finished.fileSize
  }
}

/// What an upgrade copies: the classes, and the tables that are not classes (files written
/// with Realm Core directly), except `metadata`, whose schema version the builder writes.
struct UpgradeContent {
  let schema: Schema
  let plainTables: [ObjectSchema]
  /// The tables whose objects are copied, with the name the builder knows them by.
  let sources: [(name: String, table: Table)]

  init(_ group: Group, path: String) throws {
    do {
      (schema, plainTables, sources) = try UpgradeContent.parts(group)
    } catch {
      throw StorageError.from(error, path: path)
    }
  }

  /// A chosen part of a file (`unsync` leaves out what only sync used).
  init(schema: Schema, plainTables: [ObjectSchema], sources: [(name: String, table: Table)]) {
    self.schema = schema
    self.plainTables = plainTables
    self.sources = sources
  }

  private static func parts(_ group: Group) throws(FormatError) -> (Schema, [ObjectSchema], [(name: String, table: Table)]) {
    let schema = try group.schema()
    var plain: [ObjectSchema] = []
    var sources: [(name: String, table: Table)] = []
    for c in schema.classes where !c.isEmbedded {
      if let t = group.table(forClass: c.name) { sources.append((c.name, t)) }
    }
    for t in group.tables where t.className == nil && t.name != FormatConstants.metadataTable {
      plain.append(try group.objectSchema(of: t))
      sources.append((t.linkName, t))
    }
    return (schema, plain, sources)
  }

  /// Objects per copied table.
  var counts: [(name: String, objects: Int)] { sources.map { ($0.name, $0.table.objectCount) } }

  /// Appends every object, keys kept (in format 20 the builder derives the keys of objects
  /// with a primary key); a table whose leaves hold another number of objects than it says is
  /// refused. Errors pass through: ``Upgrader/upgrade(path:options:)`` names what
  /// failed, an upgrade or a conversion.
  func copy<S: SequentialNodeSink>(from group: Group, into builder: RealmFileBuilder<S>, path: String) throws {
    for (name, table) in sources {
      var copied = 0
      try group.forEachObject(in: table) { key, values in
        try builder.append(className: name, key: key, values: values)
        copied += 1
      }
      // The reports give the table's count: a damaged one is not written over.
      try table.requireObjectCount(copied)
    }
  }
}
