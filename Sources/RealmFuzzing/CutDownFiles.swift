import Foundation
import RealmFormat
import RealmModel
import RealmJSON

/// Small Realm files cut from the reading fixtures that are too large to mutate quickly
/// (`alltypes` is 7 MiB): the fixture's schema and its first objects with the objects they link
/// to, written by our writer into memory. Every column type and collection kind stays, in a
/// few kilobytes.
enum CutDownFiles {
  /// Fixture folders with a `schema.json` and `dump.jsonl` to cut.
  static let sources = ["alltypes", "strings", "embedded", "nested-links"]

  /// `(name, bytes)` per source that could be cut.
  static func build(_ resources: FuzzResources) throws -> [(String, [UInt8])] {
    var out: [(String, [UInt8])] = []
    for source in sources {
      let dumpURL = resources.fixture("\(source)/dump.jsonl")
      guard FileManager.default.fileExists(atPath: dumpURL.path) else { continue }
      let schema = try SchemaJSON.decode(try resources.bytes(resources.fixture("\(source)/schema.json")))
      let decoder = CanonicalDecoder(schema: schema)
      var objects: [DecodedObject] = []
      // Objects with long strings or data (the edge values) would make the seed large.
      for (n, line) in try resources.bytes(dumpURL).split(separator: 0x0A).enumerated() where line.count <= 4096 {
        objects.append(try decoder.decodeLine(Array(line), line: n + 1))
      }
      out.append(("\(source)-\(perClass)", try file(schema: schema, objects: selection(objects))))
    }
    return out
  }

  /// Objects kept per class.
  static let perClass = 8

  /// The first ``perClass`` objects of every class, and the objects they link to, and those
  /// link to, up to 2 × ``perClass`` objects per class (in the dump's order).
  static func selection(_ objects: [DecodedObject]) -> [DecodedObject] {
    struct ID: Hashable { var className: String; var key: Int64 }
    var chosen = Set<ID>()
    var perClassCount: [String: Int] = [:]
    var pending: [DecodedObject] = []
    let byID = Dictionary(objects.compactMap { o in o.key.map { (ID(className: o.className, key: $0), o) } }, uniquingKeysWith: { a, _ in a })
    func take(_ o: DecodedObject, limit: Int) {
      guard let key = o.key, perClassCount[o.className, default: 0] < limit,
        chosen.insert(ID(className: o.className, key: key)).inserted
      else { return }
      perClassCount[o.className, default: 0] += 1
      pending.append(o)
    }
    for o in objects { take(o, limit: perClass) }
    var i = 0
    while i < pending.count {
      forEachLink(in: pending[i].values) { link in
        if let target = byID[ID(className: link.className, key: link.key)] { take(target, limit: 2 * perClass) }
      }
      i += 1
    }
    // Links to objects left out (chains of links reach far) become null, or leave their
    // collection.
    func keep(_ link: ObjectLink) -> Bool { chosen.contains(ID(className: link.className, key: link.key)) }
    return objects.filter { o in o.key.map { chosen.contains(ID(className: o.className, key: $0)) } ?? false }.map { o in
      var o = o
      o.values = o.values.map { pruned($0, keep: keep) ?? .null }
      return o
    }
  }

  /// `value` without links to objects `keep` refuses; nil when `value` itself is such a link.
  static func pruned(_ value: RealmValue, keep: (ObjectLink) -> Bool) -> RealmValue? {
    switch value {
    case .link(let link): return keep(link) ? value : nil
    case .list(let items): return .list(items.compactMap { pruned($0, keep: keep) })
    case .set(let items): return .set(items.compactMap { pruned($0, keep: keep) })
    case .dictionary(let entries):
      return .dictionary(entries.compactMap { e in pruned(e.value, keep: keep).map { DictionaryEntry(e.key, $0) } })
    case .embedded(var object):
      object.properties = object.properties.map { NamedValue($0.name, pruned($0.value, keep: keep) ?? .null) }
      return .embedded(object)
    default: return value
    }
  }

  /// Calls `body` for every link in `values`, at any depth.
  static func forEachLink(in values: [RealmValue], _ body: (ObjectLink) -> Void) {
    for value in values {
      switch value {
      case .link(let link): body(link)
      case .list(let items), .set(let items): forEachLink(in: items, body)
      case .dictionary(let entries): forEachLink(in: entries.map(\.value), body)
      case .embedded(let object): forEachLink(in: object.properties.map(\.value), body)
      default: break
      }
    }
  }

  /// A file with `schema` and `objects`, written by our writer into memory.
  static func file(schema: Schema, objects: [DecodedObject]) throws -> [UInt8] {
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for object in objects {
      _ = try builder.append(className: object.className, key: object.key, values: object.values)
    }
    let finished = try builder.finish()
    var sink = builder.sink
    sink.finish(header: finished.header, fileSize: finished.fileSize)
    return sink.bytes
  }
}
