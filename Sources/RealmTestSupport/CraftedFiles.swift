import RealmFormat
import RealmModel

/// Realm files built by our writer for tests, and damaged on purpose.
public enum CraftedFiles {
  /// A format-24 file (built by our writer) holding `objects`, each a class name and its
  /// property values in column order, appended in order; returns its bytes and the objects'
  /// keys. For example a file with a `Mixed` holding a nested list, which formats before 24
  /// cannot store.
  public static func file(
    classes: [ObjectSchema], objects: [(className: String, values: [RealmValue])]
  ) throws -> (bytes: [UInt8], keys: [Int64]) {
    let builder = try RealmFileBuilder(schema: Schema(schemaVersion: 1, fileFormat: 24, classes: classes), sink: BufferNodeSink())
    var keys: [Int64] = []
    for object in objects { keys.append(try builder.append(className: object.className, key: nil, values: object.values)) }
    let finished = try builder.finish()
    var sink = builder.sink
    sink.finish(header: finished.header, fileSize: finished.fileSize)
    return (sink.bytes, keys)
  }

  /// ``file(classes:objects:)`` built through a ``RewritingNodeSink`` with `rewrite`: returns
  /// the bytes and how many nodes `rewrite` changed (a test checks it hit its node).
  public static func file(
    classes: [ObjectSchema], objects: [(className: String, values: [RealmValue])],
    rewriting rewrite: @escaping ([UInt8]) -> [UInt8]?
  ) throws -> (bytes: [UInt8], rewritten: Int) {
    try file(classes: classes, objects: objects, placing: { node, _ in rewrite(node) })
  }

  /// ``file(classes:objects:rewriting:)`` whose rewrite is told where each node goes
  /// (``RewritingNodeSink/init(placing:)``).
  public static func file(
    classes: [ObjectSchema], objects: [(className: String, values: [RealmValue])],
    placing rewrite: @escaping (_ node: [UInt8], _ at: Ref) -> [UInt8]?
  ) throws -> (bytes: [UInt8], rewritten: Int) {
    let builder = try RealmFileBuilder(
      schema: Schema(schemaVersion: 1, fileFormat: 24, classes: classes), sink: RewritingNodeSink(placing: rewrite))
    for object in objects { _ = try builder.append(className: object.className, key: nil, values: object.values) }
    let finished = try builder.finish()
    var sink = builder.sink.image
    sink.finish(header: finished.header, fileSize: finished.fileSize)
    return (sink.bytes, builder.sink.rewritten)
  }

  /// A file with 256 `Holder` objects, each with a list of ints (`numbers`); object 0's list
  /// holds `listCount` elements (a B+-tree of several leaves when over 1000), the others are
  /// empty.
  public static func holders(listCount: Int) throws -> [UInt8] {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Holder", properties: [Property(name: "numbers", type: .int, collection: .list)])
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for i in 0..<256 {
      let numbers: [RealmValue] = i == 0 ? (0..<listCount).map { .int(Int64($0 % 100)) } : []
      _ = try builder.append(className: "Holder", key: nil, values: [.list(numbers)])
    }
    let finished = try builder.finish()
    var sink = builder.sink
    sink.finish(header: finished.header, fileSize: finished.fileSize)
    return sink.bytes
  }

  /// A file made by ``holders(listCount:)`` with every object's list slot pointing at object
  /// 0's list: the damage a hostile file can do without a single out-of-bounds ref (one list
  /// decoded 256 times).
  public static func sharingOneList(_ bytes: [UInt8]) throws -> [UInt8] {
    struct Unexpected: Error {}
    var bytes = bytes
    let group = try Group(reader: ByteReader(bytes: bytes))
    guard let table = group.table(forClass: "Holder"), let column = table.column(named: "numbers") else {
      throw Unexpected()
    }
    let leaf = try ArrayNode(group.reader, table.clusterRoot)
    guard !leaf.isInner, leaf.count > 1 + column.leafIndex else { throw Unexpected() }
    let refs = try leaf.child(1 + column.leafIndex)
    // The slots are packed little-endian integers of the node's width (8 to 64 bits for a
    // ref the size of this file).
    let width = refs.width / 8
    guard refs.count == 256, [1, 2, 4, 8].contains(width) else { throw Unexpected() }
    let shared = refs.uncheckedGet(0)
    for slot in 1..<256 {
      let at = refs.ref.rawValue + 8 + slot * width
      for b in 0..<width { bytes[at + b] = UInt8(truncatingIfNeeded: shared >> (8 * b)) }
    }
    return bytes
  }
}
