import Foundation
import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmMigration
import RealmRewrite

/// The fixtures and checks of the file-format tests: every schema + dump pair of the fixtures
/// (Realm's answers) built in a format, and what every file written in a format must pass.
enum FileFormatTestSupport {
  /// A schema and dump (Realm's answers) to build files from.
  struct Source: Sendable, CustomStringConvertible {
    var name: String
    var schema: [UInt8]
    var dump: [UInt8]
    var description: String { name }
    /// Realm's `verify()` asserts on links inside collections nested in a Mixed, in its own
    /// files too (a false alarm the oracle's README names): its dump alone speaks for it.
    var verifyFalseAlarm: Bool { name.hasPrefix("nested-links/") }
  }

  /// Every schema + dump pair of the fixtures (`dir/`, `dir/after.`, `dir/copy.`), and
  /// `alltypes-flat`: `alltypes` without its collections nested in Mixed values (format 24
  /// only), so that formats 22 and 23 get every other type, set and dictionary.
  static let sources: [Source] = {
    var out: [Source] = []
    let fm = FileManager.default
    for dir in ((try? fm.contentsOfDirectory(atPath: Fixtures.root.path)) ?? []).sorted() {
      for prefix in ["", "after.", "copy."] {
        guard let schema = try? Fixtures.bytes("\(dir)/\(prefix)schema.json"),
          let dump = try? Fixtures.bytes("\(dir)/\(prefix)dump.jsonl")
        else { continue }
        out.append(Source(name: "\(dir)/\(prefix)", schema: schema, dump: dump))
      }
    }
    if let all = out.first(where: { $0.name == "alltypes/" }) {
      out.append(Source(name: "alltypes-flat", schema: all.schema, dump: withoutNestedCollections(all.dump)))
    }
    // The large dumps (alltypes' 600 objects with 128 KiB binaries, strings' 5,126) are cut
    // to their first objects, so that building, dumping and comparing them in every format
    // stays quick in `make test`; every value shape of their first objects is kept.
    // REALMCTL_FULL_FIXTURES=1 takes them whole (docs/testing.md).
    if FixtureSample.isFull { return out }
    return out.map { s in
      var s = s
      if s.dump.count > 300_000 { s.dump = firstObjects(s.dump, perClass: 60) }
      return s
    }
  }()

  /// The first `perClass` objects of each class of a dump; links to the objects left out are
  /// dropped (null for a single link or a dictionary value, removed from lists and sets).
  static func firstObjects(_ dump: [UInt8], perClass: Int) -> [UInt8] {
    var problems: [String] = []
    let lines = DumpComparison.parseLines(dump, name: "dump", problems: &problems)
    var kept: [String: Set<String>] = [:]
    var counts: [String: Int] = [:]
    var keptLines: [JSONValue] = []
    for line in lines {
      guard case .string(let cls)? = line["$class"] else { continue }
      guard counts[cls, default: 0] < perClass else { continue }
      counts[cls, default: 0] += 1
      kept[cls, default: []].insert(line["$key"].map(DumpComparison.canon) ?? "")
      keptLines.append(line)
    }
    func dropped(_ v: JSONValue) -> Bool {
      guard case .string(let cls)? = v["$ref"], let key = v["$key"] else { return false }
      return !(kept[cls]?.contains(DumpComparison.canon(key)) ?? false)
    }
    func fix(_ v: JSONValue) -> JSONValue {
      switch v {
      case .array(let items): return .array(items.filter { !dropped($0) }.map(fix))
      case .object(let members):
        if dropped(v) { return .null }
        return .object(members.map { JSONMember($0.key, fix($0.value)) })
      default: return v
      }
    }
    var writer = JSONWriter()
    for line in keptLines {
      guard case .object(let members) = line else { continue }
      writer.value(.object(members.map { $0.key.hasPrefix("$") ? $0 : JSONMember($0.key, fix($0.value)) }))
      writer.buffer.append(0x0A)
    }
    return writer.buffer
  }

  static func source(_ name: String) throws -> Source {
    try #require(sources.first { $0.name == name }, "fixture \(name)")
  }

  /// The dump with every collection nested in a Mixed value (`mixed_val`, and the elements of
  /// `mixed_list` and `mixed_dictionary`) replaced by null.
  static func withoutNestedCollections(_ dump: [UInt8]) -> [UInt8] {
    var problems: [String] = []
    var writer = JSONWriter()
    func nested(_ v: JSONValue) -> Bool {
      switch v {
      case .array: return true
      case .object(let members): return !members.contains { $0.key.hasPrefix("$") }
      default: return false
      }
    }
    for line in DumpComparison.parseLines(dump, name: "dump", problems: &problems) {
      guard case .object(let members) = line else { continue }
      let flat = members.map { m -> JSONMember in
        switch (m.key, m.value) {
        case ("mixed_val", let v) where nested(v): return JSONMember(m.key, .null)
        case ("mixed_list", .array(let items)): return JSONMember(m.key, .array(items.map { nested($0) ? .null : $0 }))
        case ("mixed_dictionary", .object(let entries)):
          return JSONMember(m.key, .object(entries.map { JSONMember($0.key, nested($0.value) ? .null : $0.value) }))
        default: return m
        }
      }
      writer.value(.object(flat))
      writer.buffer.append(0x0A)
    }
    return writer.buffer
  }

  /// Writes `source` as a new file of `format` at `path` (through the builder `create` uses);
  /// returns nil, or the reason when the format cannot hold the data.
  static func create(_ source: Source, format: WritableFileFormat, at path: String) throws -> String? {
    let schema = try SchemaJSON.decode(source.schema)
    let decoder = CanonicalDecoder(schema: schema)
    do {
      try AtomicFileCreation.create(path: path) { out in
        let builder = try RealmFileBuilder(schema: schema, fileFormat: format, sink: try FileNodeSink(output: out))
        var line = 0
        for chunk in source.dump.split(separator: 0x0A) {
          line += 1
          let object = try decoder.decodeLine(Array(chunk), line: line)
          try builder.append(className: object.className, key: object.key, values: object.values)
        }
        let finished = try builder.finish()
        var sink = builder.sink
        try sink.finish(header: finished.header, fileSize: finished.fileSize)
      }
    } catch let e as FormatError {
      return e.detail
    }
    return nil
  }

  /// Converts the file at `path` to `format` into `output` (`realmctl convert --output`).
  static func convert(_ path: String, to format: WritableFileFormat, output: String) throws {
    var options = UpgradeOptions()
    options.fileFormat = format
    options.outputPath = output
    let result = try Upgrader.upgrade(path: path, options: options)
    if !result.upgraded { try FileManager.default.copyItem(atPath: path, toPath: output) }
  }

  /// The Realm Core of a format that opens it as it is, as an app on that SDK does.
  /// (Format 20's Core 10 is not among the oracles: Core 14 checks its upgrade.)
  static func ownCore(_ format: WritableFileFormat) -> RealmOracle? { RealmOracle.ownCore(ofFormat: format.rawValue) }

  /// What every file written in `format` must pass: it is of that format, the integrity
  /// checker finds nothing, its dump equals `dump` by meaning (in format 20 after replacing
  /// object keys by primary keys, which Core 10 derives keys from), and, when the oracles are
  /// present, Realm Core 14 (upgrading a copy) and the format's own Core (opening it as it is)
  /// verify it and dump the same data. `keysFromPrimaryKeys`: the file came from format 20
  /// (its keys stay those Core 10 derived, as Realm's own upgrade keeps them).
  static func check(
    _ path: String, format: WritableFileFormat, schema: [UInt8], dump: [UInt8], key: EncryptionKey? = nil,
    keyHex: String? = nil, keysFromPrimaryKeys: Bool = false, verifyFalseAlarm: Bool = false, _ context: String
  ) throws {
    let group = try RealmFile.open(path: path, key: key).group
    expectEqual(group.fileFormat, format.rawValue, "\(context): file format \(group.fileFormat)")
    let problems = group.check()
    #expect(problems.isEmpty, "\(context): \(problems.prefix(5))")
    let compare = { (expected: [UInt8], actual: [UInt8]) -> [String] in
      format.derivesObjectKeysFromPrimaryKeys || keysFromPrimaryKeys
        ? DumpComparison.compareDumpsByPrimaryKeys(expected: expected, actual: actual, schema: schema)
        : DumpComparison.compareDumps(expected: expected, actual: actual, schema: schema)
    }
    let ours = compare(dump, try RealmDumper.dumpJSONL(path, key: key))
    #expect(ours.isEmpty, "\(context): \(ours.prefix(5).joined(separator: "\n"))")
    var oracles: [RealmOracle] = [.core14]
    if let own = ownCore(format), own.core != .core14 { oracles.append(own) }
    for oracle in oracles where oracle.isAvailable {
      // Core 12's debug verify asserts on every set of links, its own files' too (checked with
      // `core12/oracle create`, and its samples with links in a set of Mixed): Realm's false
      // alarm, so its dump alone speaks for it there.
      if !verifyFalseAlarm && !(oracle.core == .core12 && hasLinkSet(schema)) {
        let failure = try oracle.verifyFailure(path, key: keyHex)
        #expect(failure == nil, "\(context): Realm \(oracle.core) verify: \(failure ?? "")")
      }
      let realmDump = try oracle.dump(path, key: keyHex)
      let differences = compare(dump, Array(realmDump.utf8))
      #expect(differences.isEmpty, "\(context): Realm \(oracle.core) dump: \(differences.prefix(5).joined(separator: "\n"))")
    }
  }

  /// True when the schema document has a set of links or of Mixed values (which may hold links).
  static func hasLinkSet(_ schema: [UInt8]) -> Bool {
    guard case .array(let classes)? = (try? JSONParser.parse(schema))?["classes"] else { return false }
    for c in classes {
      guard case .array(let properties)? = c["properties"] else { continue }
      let primitives: Set<String> = [
        "int", "bool", "string", "data", "date", "float", "double", "decimal128", "objectId", "uuid",
      ]
      for p in properties where p["type"] == .string("set") {
        if case .string(let target)? = p["objectType"], !primitives.contains(target) { return true }
      }
    }
    return false
  }
}
