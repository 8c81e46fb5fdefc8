import Foundation

/// Realm Core's answers to `TEXT` queries on a file, against its answers on the file Realm
/// builds itself from the same objects: what shows that a file's full-text indexes hold what
/// Realm's would (`verify` does not look at indexes, and a missing index makes Realm answer
/// "Column has no fulltext index").
///
/// ```swift
/// let check = FullTextOracle(.core14)
/// let problems = try check.disagreements(path, indexed: [("Note", "noteText")], searches: ["lorem", "lor*"])
/// #expect(problems.isEmpty, "\(problems)")
/// ```
public struct FullTextOracle: Sendable {
  /// The Realm Core that answers, and builds the reference file (Realm Core 13 writes format 23).
  public let oracle: RealmOracle

  /// A check by `oracle`.
  public init(_ oracle: RealmOracle = .core14) { self.oracle = oracle }

  /// The searches whose answers differ, one line each with both answers; empty when Realm
  /// answers every search of every property on `path` as on its own file.
  ///
  /// The reference file is Realm's `create` of Realm's own dump of `path`, with Realm's schema
  /// of it where the `indexed` properties have full-text indexes (Realm's schema says only
  /// `"indexed": true` for both kinds), at the file's schema version. Realm gives the objects of
  /// a class with a primary key new keys there: its answers are compared through the primary
  /// keys. A search on which Realm crashes on its own file (Realm Core 13 on some prefixes
  /// without a match) is not compared.
  ///
  /// - Parameters:
  ///   - path: the file to check.
  ///   - indexed: (class, property) of every full-text indexed property to query.
  ///   - searches: the texts of `property TEXT "text"`.
  public func disagreements(_ path: String, indexed: [(String, String)], searches: [String]) throws -> [String] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmctl-fulltext-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let (reference, schema) = try referenceFile(of: path, indexed: indexed, in: dir)
    let keys = try keyMap(from: reference, to: path, schema: schema)
    // Each file is copied once and asked every search (RealmOracle's batch).
    let queries = indexed.flatMap { className, property in
      searches.map { search in RealmOracle.Query(className, "\(property) TEXT \"\(search)\"") }
    }
    let onPath = try oracle.query(path, queries)
    let onReference = try oracle.query(reference, queries)
    var out: [String] = []
    for (query, (ours, theirs)) in zip(queries, zip(onPath, onReference)) {
      if theirs == .refused("") { continue }  // Realm crashed on its own file
      let inPath = Self.text(ours)
      let inReference: String
      switch theirs {
      case .keys(let found):
        let mapped = found.map { k in keys[query.className]?[k].map(String.init) ?? String(k) }
        inReference = "[" + mapped.joined(separator: ", ") + "]"
      case .refused(let message): inReference = "error '\(message)'"
      }
      if inPath != inReference {
        out.append("\(query.className): \(query.predicate): the file gives \(inPath), Realm's own file \(inReference)")
      }
    }
    return out
  }

  /// Per class with a primary key, the key of each object of `reference` in `path` (found by
  /// the primary key, in Realm's dumps of both).
  func keyMap(from reference: String, to path: String, schema: [String: Any]) throws -> [String: [Int64: Int64]] {
    var primaryKeys: [String: String] = [:]
    for cls in schema["classes"] as? [[String: Any]] ?? [] {
      if let name = cls["name"] as? String, let pk = cls["primaryKey"] as? String { primaryKeys[name] = pk }
    }
    func objects(_ file: String) throws -> [(className: String, key: Int64, primaryKey: String)] {
      try oracle.dump(file).split(separator: "\n").compactMap { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let className = object["$class"] as? String, let pk = primaryKeys[className], let key = object["$key"] as? Int,
          let value = object[pk]
        else { return nil }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]), as: UTF8.self)
        return (className, Int64(key), text)
      }
    }
    var inPath: [String: [String: Int64]] = [:]
    for o in try objects(path) { inPath[o.className, default: [:]][o.primaryKey] = o.key }
    var map: [String: [Int64: Int64]] = [:]
    for o in try objects(reference) {
      if let key = inPath[o.className]?[o.primaryKey] { map[o.className, default: [:]][o.key] = key }
    }
    return map
  }

  /// Realm's answer to one query: its keys in order, or its message.
  public func answer(_ path: String, _ className: String, _ query: String) throws -> String {
    Self.text(try oracle.query(path, [RealmOracle.Query(className, query)])[0])
  }

  /// An answer as ``answer(_:_:_:)`` gives it.
  static func text(_ answer: RealmOracle.Answer) -> String {
    switch answer {
    case .keys(let keys): return "[" + keys.map(String.init).joined(separator: ", ") + "]"
    case .refused(let message): return "error '\(message)'"
    }
  }

  /// Realm's own file of the objects of `path`, in `dir`.
  func referenceFile(of path: String, indexed: [(String, String)], in dir: URL) throws -> (String, [String: Any]) {
    let schemaText = try oracle.schema(path)
    guard var schema = try JSONSerialization.jsonObject(with: Data(schemaText.utf8)) as? [String: Any],
      var classes = schema["classes"] as? [[String: Any]]
    else { throw RealmOracle.OracleError.failed("Realm's schema of \(path) is not a schema document") }
    for (c, cls) in classes.enumerated() {
      guard var properties = cls["properties"] as? [[String: Any]] else { continue }
      for (p, property) in properties.enumerated()
      where indexed.contains(where: { $0.0 as String == cls["name"] as? String && $0.1 == property["name"] as? String }) {
        properties[p]["indexed"] = "full-text"
      }
      classes[c]["properties"] = properties
    }
    schema["classes"] = classes
    let version = (schema["schemaVersion"] as? Int) ?? 0
    let schemaURL = dir.appendingPathComponent("schema.json")
    let dataURL = dir.appendingPathComponent("data.jsonl")
    try JSONSerialization.data(withJSONObject: schema).write(to: schemaURL)
    try Data(try oracle.dump(path).utf8).write(to: dataURL)
    let reference = dir.appendingPathComponent("reference.realm").path
    let created = try oracle.run(["create", "--schema", schemaURL.path, "--version", String(version), "--data", dataURL.path, reference])
    guard created.status == 0 else { throw RealmOracle.OracleError.failed("create: " + created.output + created.errorOutput) }
    return (reference, schema)
  }
}
