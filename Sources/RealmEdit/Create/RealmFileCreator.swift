import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage

/// `realmctl create`: a new Realm file from a schema (schema JSON) and objects (canonical
/// JSON Lines, the format `dump` writes), so fixtures can live in git as text.
public enum RealmFileCreator {
  /// What was written.
  public struct Summary {
    public var objects = 0
    public var perClass: [String: Int] = [:]
    public var fileSize = 0
  }

  /// A data file: canonical JSON Lines, or CSV rows of one class.
  public enum DataFile: Equatable, Sendable {
    /// Canonical JSON Lines (`dump --format jsonl`).
    case jsonLines(String)
    /// CSV rows of one class (`dump --format csv`), read by ``CSVObjectDecoder``.
    case csv(String, className: String)

    /// The file's path.
    public var path: String {
      switch self {
      case .jsonLines(let p), .csv(let p, _): return p
      }
    }
  }

  /// Writes `output` (which must not exist) atomically.
  ///
  /// - Parameters:
  ///   - output: the path of the new file.
  ///   - schema: its schema (and schema version).
  ///   - dataPath: the JSON Lines of its objects, nil for none.
  ///   - key: the encryption key of the new file, nil for a plain file.
  ///   - progress: counts the bytes of the data file read; its total is the file's size.
  ///   - fileFormat: the file format to write.
  public static func create(
    output: String, schema: Schema, dataPath: String?, fileFormat: WritableFileFormat = .current,
    key: EncryptionKey? = nil, progress: ProgressCounter? = nil
  ) throws -> Summary {
    try create(
      output: output, schema: schema, data: dataPath.map { [.jsonLines($0)] } ?? [], fileFormat: fileFormat, key: key,
      progress: progress)
  }

  /// Writes `output` (which must not exist) atomically from the data files, in order, in
  /// `fileFormat`.
  public static func create(
    output: String, schema: Schema, data: [DataFile], fileFormat: WritableFileFormat = .current,
    key: EncryptionKey? = nil, progress: ProgressCounter? = nil
  ) throws -> Summary {
    var summary = Summary()
    try AtomicFileCreation.create(path: output, encryptionKey: key) { out in
      let builder: RealmFileBuilder<FileNodeSink>
      // Index entries and links wait for the end in a temporary file, not in memory.
      let scratch = try TemporaryFileScratch(besideFile: output)
      do {
        builder = try RealmFileBuilder(
          schema: schema, fileFormat: fileFormat, sink: try FileNodeSink(output: out), scratch: scratch)
      } catch let e as FormatError {
        throw InputError(.invalidInput, path: output, "file format \(fileFormat) cannot hold this schema: \(e.detail)")
      }
      for file in data {
        guard case .jsonLines(let dataPath) = file else {
          guard case .csv(let dataPath, let className) = file else { continue }
          let objects = try CSVObjectDecoder.objects(path: dataPath, className: className, schema: schema)
          for o in objects {
            let cls = schema.objectSchema(named: className)!
            do {
              try builder.append(className: className, key: o.object.key, values: try o.valuesForNewObject(cls))
            } catch let e as FormatError {
              throw InputError(.invalidInput, path: dataPath, "\(o.location): \(e.detail)")
            }
          }
          summary.objects += objects.count
          summary.perClass[className, default: 0] += objects.count
          continue
        }
        // Lines are parsed and decoded on every core; the builder takes them in order.
        var lines = ParallelLineDecoder(decoder: CanonicalDecoder(schema: schema), path: dataPath)
        lines.progress = progress
        // Objects come in runs of one class: counted per run, not looked up per object.
        var runClass = ""
        var runCount = 0
        defer { if runCount > 0 { summary.perClass[runClass, default: 0] += runCount } }
        try lines.forEachObject { object, line in
          do {
            try builder.append(className: object.className, key: object.key, values: object.values)
          } catch let e as FormatError {
            if let failure = scratch.failure { throw failure }
            throw InputError(.invalidInput, path: dataPath, "'\(dataPath)' line \(line): \(e.detail)")
          }
          summary.objects += 1
          if object.className != runClass {
            if runCount > 0 { summary.perClass[runClass, default: 0] += runCount }
            runClass = object.className
            runCount = 0
          }
          runCount += 1
        }
      }
      let finished: GroupWriter.FinishedFile
      do {
        finished = try builder.finish()
      } catch let e as FormatError {
        if let failure = scratch.failure { throw failure }
        throw InputError(.invalidInput, path: data.first?.path ?? output, "the objects cannot be written: \(e.detail)")
      }
      if let failure = scratch.failure { throw failure }
      // The builder appends nothing after finish(), so its sink's state can be taken over.
      var sink = builder.sink
      try sink.finish(header: finished.header, fileSize: finished.fileSize)
      summary.fileSize = out.isEncrypted ? RealmEncryption.encryptedSize(ofDataSize: finished.fileSize) : finished.fileSize
    }
    return summary
  }
}
