import RealmJSON
import RealmStorage
import RealmFormat

/// `realmctl create`: a new Realm file from a schema (schema JSON) and objects (canonical
/// JSON Lines, the format `dump` writes), so fixtures can live in git as text.
public enum RealmFileCreator {
  /// What was written.
  public struct Summary {
    public var objects = 0
    public var perClass: [String: Int] = [:]
    public var fileSize = 0
  }

  /// Writes `output` (which must not exist) atomically.
  ///
  /// - Parameter progress: counts the bytes of the data file read; its total is the file's size.
  public static func create(
    output: String, schema: Schema, dataPath: String?, key: EncryptionKey? = nil, progress: ProgressCounter? = nil
  ) throws -> Summary {
    var summary = Summary()
    try AtomicFileCreation.create(path: output, encryptionKey: key) { out in
      let builder = try RealmFileBuilder(schema: schema, sink: try FileNodeSink(output: out))
      if let dataPath {
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
        throw InputError(.invalidInput, path: dataPath ?? output, "the objects cannot be written: \(e.detail)")
      }
      // The builder appends nothing after finish(), so its sink's state can be taken over.
      var sink = builder.sink
      try sink.finish(header: finished.header, fileSize: finished.fileSize)
      summary.fileSize = out.isEncrypted ? RealmEncryption.encryptedSize(ofDataSize: finished.fileSize) : finished.fileSize
    }
    return summary
  }
}
