import RealmModel

/// `dump --format sql`: a SQLite script that loads the file into a relational copy
/// (docs/sql-export.md): one transaction, all tables first, then the rows as multi-row
/// `INSERT`s, then the indexes.
///
/// Streamed: objects are encoded one at a time (``SQLObjectEncoder``) into at most one open
/// statement per table (``SQLInsertBuffer``), and finished statements go to the sink in chunks
/// of 64 KiB, so memory does not grow with the file. Chunks of objects can also be encoded on
/// other threads (``chunkEncoder()``) into row records that ``writeEncoded(_:objectCount:)``
/// makes into statements in order: the script is byte for byte the object-by-object one.
public struct SQLDumpWriter: DumpWriter {
  /// What is exported.
  public struct Options: Sendable, Equatable {
    /// The top-level classes exported (nil: all); embedded classes come with their owners.
    public var classNames: [String]?
    /// True when only some objects of the classes are exported (`--limit`, `--offset`,
    /// `--where`): the script says so, since links may name objects that are not in it.
    public var isPartial: Bool

    /// Creates options.
    public init(classNames: [String]? = nil, isPartial: Bool = false) {
      self.classNames = classNames
      self.isPartial = isPartial
    }
  }

  private let sink: OutputSink
  private let options: Options
  private var encoder: SQLObjectEncoder?
  private var buffer: SQLInsertBuffer?
  private var current: SQLExportPlan.ClassLayout?

  /// Creates a writer that hands its output to `sink`.
  public init(sink: @escaping OutputSink, options: Options = Options()) {
    self.sink = sink
    self.options = options
  }

  public mutating func begin(schema: Schema) throws {
    let plan = SQLExportPlan(schema: schema, classNames: options.classNames)
    encoder = SQLObjectEncoder(plan: plan, schema: schema)
    var buffer = SQLInsertBuffer(plan: plan)
    var text = SQLScript.header(plan, schema: schema, isPartial: options.isPartial)
    for table in plan.tables { text += "\n" + SQLScript.createTable(table) }
    text += "\n"
    buffer.output.append(contentsOf: text.utf8)
    self.buffer = buffer
    try flush(force: false)
  }

  public mutating func beginClass(_ objectSchema: ObjectSchema) throws {
    guard let layout = encoder?.plan.classes[objectSchema.name] else {
      throw DumpOutputError("class '\(objectSchema.name)' is not part of the SQL export")
    }
    current = layout
  }

  public mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    guard let current, let encoder, buffer != nil else {
      throw DumpOutputError("an object was written outside a class")
    }
    encoder.encode(current, key: key, values: values, into: &buffer!)
    try flush(force: false)
  }

  public func chunkEncoder() -> (any DumpChunkEncoder)? {
    guard let encoder, let current else { return nil }
    return SQLChunkEncoder(encoder: encoder, layout: current)
  }

  public mutating func writeEncoded(_ bytes: [UInt8], objectCount: Int) throws {
    guard buffer != nil else { throw DumpOutputError("rows were written before the tables") }
    try buffer!.replay(bytes)
    try flush(force: false)
  }

  public mutating func endClass() throws {
    // Close the statements of this class so the script groups rows class by class.
    buffer?.closeAll()
    current = nil
    try flush(force: false)
  }

  public mutating func finish() throws {
    guard let plan = encoder?.plan, buffer != nil else { return }
    buffer!.closeAll()
    var text = ""
    if !plan.indexes.isEmpty {
      text += "\n" + plan.indexes.map(SQLScript.createIndex).joined()
    }
    text += SQLScript.footer
    buffer!.output.append(contentsOf: text.utf8)
    try flush(force: true)
  }

  private mutating func flush(force: Bool) throws {
    guard let count = buffer?.output.count, count > 0, force || count >= outputChunkSize else { return }
    try sink(buffer!.output)
    buffer!.output.removeAll(keepingCapacity: true)
  }
}

/// Encodes consecutive objects of one class into row records (``SQLInsertBuffer/replay(_:)``),
/// on any thread (``SQLDumpWriter/chunkEncoder()``).
struct SQLChunkEncoder: DumpChunkEncoder {
  let encoder: SQLObjectEncoder
  let layout: SQLExportPlan.ClassLayout

  func encode(_ objects: (_ add: (_ key: Int64, _ values: [RealmValue]) -> Void) throws -> Void) throws -> [UInt8] {
    var buffer = SQLInsertBuffer(plan: encoder.plan, recordingRows: true)
    buffer.output.reserveCapacity(1 << 20)
    try objects { key, values in encoder.encode(layout, key: key, values: values, into: &buffer) }
    return buffer.output
  }
}
