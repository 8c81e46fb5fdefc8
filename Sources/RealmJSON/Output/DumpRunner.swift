import RealmFormat

/// Drives a ``DumpWriter`` over the objects of a file: what `realmctl dump` does between
/// opening the file and flushing its output.
///
/// Classes come in ascending byte order of their names (the schema's order), embedded classes
/// are left out (their objects are inline in their parents), objects come in key order.
/// `offset` and `limit` count objects over the whole output in that order (with one class
/// selected, over that class); a filter, when given, is applied before them. A class is shown
/// (even with no objects) unless it lies wholly before the offset or after the limit.
public struct DumpRunner {
  /// One class only (nil: every top-level class).
  public var className: String?
  /// Objects to pass over before the first one written.
  public var offset: Int
  /// Most objects to write (nil: all).
  public var limit: Int?
  /// Keeps an object when it returns true (`dump --where`); nil keeps every object.
  public var filter:
    ((_ objectSchema: ObjectSchema, _ key: Int64, _ values: [RealmValue]) throws -> Bool)?

  /// Creates a runner.
  public init(
    className: String? = nil, offset: Int = 0, limit: Int? = nil,
    filter: ((_ objectSchema: ObjectSchema, _ key: Int64, _ values: [RealmValue]) throws -> Bool)? =
      nil
  ) {
    self.className = className
    self.offset = max(0, offset)
    self.limit = limit.map { max(0, $0) }
    self.filter = filter
  }

  /// Marks the end of iteration once the limit is reached.
  private struct Stop: Error {}

  /// Writes the dump of `group` (whose schema is `schema`, from `group.schema()`) through
  /// `writer`, from `begin` to `finish`; returns the number of objects written.
  ///
  /// - Throws: ``DumpOutputError`` for a class that does not exist or is embedded (check
  ///   beforehand to give such errors their own exit code), `FormatError` for a damaged file,
  ///   and whatever the writer, its sink or the filter throw.
  @discardableResult
  public func run(group: Group, schema: Schema, writer: inout some DumpWriter) throws -> Int {
    var classes = schema.classes.filter { !$0.isEmbedded }
    if let name = className {
      guard let cls = schema.objectSchema(named: name) else {
        throw DumpOutputError("The file has no class '\(name)'")
      }
      guard !cls.isEmbedded else {
        throw DumpOutputError(
          "'\(name)' is an embedded class: its objects are dumped inside their parents")
      }
      classes = [cls]
    }
    try writer.begin(schema: schema)
    var toSkip = offset
    var written = 0
    for cls in classes {
      guard let table = group.table(forClass: cls.name) else {
        throw DumpOutputError("The file has no table for class '\(cls.name)'")
      }
      if let limit, written >= limit { break }
      // Without a filter, classes before the offset are skipped without decoding them.
      if filter == nil && toSkip > 0 && toSkip >= table.objectCount {
        toSkip -= table.objectCount
        continue
      }
      try writer.beginClass(cls)
      let skipInTable = filter == nil ? toSkip : 0
      if filter == nil { toSkip = 0 }
      do {
        try group.forEachObject(in: table, skip: skipInTable) { key, values in
          if let filter, try !filter(cls, key, values) { return }
          if toSkip > 0 {
            toSkip -= 1
            return
          }
          if let limit, written >= limit { throw Stop() }
          try writer.writeObject(key: key, values: values)
          written += 1
        }
      } catch is Stop {
        // The limit was reached inside this class.
      }
      try writer.endClass()
    }
    try writer.finish()
    return written
  }
}
