import Foundation

/// A dump answer of Realm's and its schema answer in the fixtures, relative to the root of
/// their location: `dump.jsonl` + `schema.json`, `after.dump.jsonl` + `after.schema.json`,
/// `copy.*`, `steps/v*/after.*`.
public struct FixturePair: CustomStringConvertible, Sendable {
  /// The dump answer's path.
  public var dump: String
  /// The schema answer's path.
  public var schema: String
  /// Where both are.
  public var location: FixtureLocation
  public var description: String { dump }

  /// The pairs below `directory` of `location`.
  public static func pairs(in location: FixtureLocation, below directory: String = "") -> [FixturePair] {
    location.files(below: directory).filter { $0.hasSuffix("dump.jsonl") }.compactMap { dump in
      let schema = String(dump.dropLast("dump.jsonl".count)) + "schema.json"
      return location.exists(schema) ? FixturePair(dump: dump, schema: schema, location: location) : nil
    }
  }

  /// The committed pairs.
  public static let committed = pairs(in: .committed)
  /// Realm Core's samples (`../shared`; empty when it is absent).
  public static let realmCoreSamples = pairs(in: .shared, below: SharedFixtures.realmCoreSamples)

  /// The pairs with distinct schema files.
  public static func schemaFiles(_ pairs: [FixturePair]) -> [FixturePair] {
    var seen = Set<String>()
    return pairs.filter { seen.insert($0.schema).inserted }
  }
}

/// The neighbourhood of the first differing byte of two outputs, for test messages.
public func firstByteDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
  var i = 0
  while i < a.count && i < b.count && a[i] == b[i] { i += 1 }
  let from = max(0, i - 40)
  let ea = String(decoding: a[from..<min(a.count, i + 40)], as: UTF8.self)
  let eb = String(decoding: b[from..<min(b.count, i + 40)], as: UTF8.self)
  return "expected …\(ea)… got …\(eb)…"
}
