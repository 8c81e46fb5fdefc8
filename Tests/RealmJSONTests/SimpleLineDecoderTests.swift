import Foundation
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmJSON

/// The fast path of `create`'s line decoder (``CanonicalDecoder/decodeSimpleLine(_:lastClass:)``)
/// gives exactly the object of the full path (parser, then decoder) or leaves the line to it.
@Suite struct SimpleLineDecoderTests {
  static let schema = Schema(
    schemaVersion: nil, fileFormat: 24,
    classes: [
      ObjectSchema(
        name: "Row", primaryKey: "id",
        properties: [
          Property(name: "id", type: .int), Property(name: "name", type: .string),
          Property(name: "score", type: .double), Property(name: "created", type: .date),
          Property(name: "flag", type: .bool), Property(name: "note", type: .string, isOptional: true),
          Property(name: "n", type: .int, isOptional: true),
        ]),
      ObjectSchema(
        name: "Tag", properties: [Property(name: "label", type: .string), Property(name: "w", type: .float)]),
    ])
  let decoder = CanonicalDecoder(schema: SimpleLineDecoderTests.schema)

  /// The fast result, or nil; `#expect`s that it equals the full path's when not nil.
  @discardableResult
  func check(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> DecodedObject? {
    var bytes = Array(line.utf8)
    var last = -1
    let fast = bytes.withUnsafeMutableBufferPointer { decoder.decodeSimpleLine(UnsafeBufferPointer($0), lastClass: &last) }
    let full = try? decoder.decodeLine(bytes, line: 1)
    if let fast {
      #expect(full != nil, "the full path refuses \(line)", sourceLocation: sourceLocation)
      if let full { #expect(same(fast, full), "\(line)", sourceLocation: sourceLocation) }
    }
    _ = bytes.count
    bytes.removeAll()
    return fast
  }

  /// Equal objects, doubles compared bit for bit (so -0.0 differs from 0.0).
  func same(_ a: DecodedObject, _ b: DecodedObject) -> Bool {
    guard a.className == b.className, a.key == b.key, a.missing == b.missing, a.values.count == b.values.count else { return false }
    for (x, y) in zip(a.values, b.values) {
      if case .double(let dx) = x, case .double(let dy) = y {
        if dx.bitPattern != dy.bitPattern { return false }
      } else if x != y {
        return false
      }
    }
    return true
  }

  func row(id: String = "1", name: String = "\"a\"", score: String = "0.5", date: String = "{\"$date\":\"2023-11-14T22:13:20.000000000Z\"}", flag: String = "true", note: String = "null", n: String = "7") -> String {
    "{\"$class\":\"Row\",\"$key\":3,\"id\":\(id),\"name\":\(name),\"score\":\(score),\"created\":\(date),\"flag\":\(flag),\"note\":\(note),\"n\":\(n)}"
  }

  @Test func dumpLinesTakeTheFastPath() {
    #expect(check(row()) != nil)
    #expect(check(row(name: "\"Zoë 🎉\"", note: "\"x\"", n: "null")) != nil)
    #expect(check(" { \"$class\" : \"Row\" , \"id\" : -12 , \"name\" : \"\" , \"score\" : -0.0 , \"created\" : { \"$date\" : \"0001-01-01T00:00:00Z\" } , \"flag\" : false , \"note\" : null , \"n\" : 0 } \r") != nil)
    // Members in another order, no $key.
    #expect(check("{\"$class\":\"Row\",\"n\":1,\"flag\":true,\"note\":\"q\",\"created\":{\"$date\":\"1969-12-31T23:59:59.5Z\"},\"score\":3,\"name\":\"b\",\"id\":9}") != nil)
  }

  @Test func doublesAreTheParsersDoubles() {
    var rng = SystemRandomNumberGenerator()
    var texts = ["0.1", "0.3", "1.0", "-0.0", "0", "-0", "123456789012345", "1.23456789012345", "0.000000000000000000001",
      "9007199254740993", "0.1000000000000000055511151231257827", "4.35", "2.675", "1e5", "1E-3", "5e+0", "01.5", "1.", ".5", "-", "1.5.2"]
    for _ in 0..<3000 {
      let digits = Int.random(in: 1...17, using: &rng)
      var t = String(UInt64.random(in: 0..<UInt64(pow10(digits)), using: &rng))
      let point = Int.random(in: 0...t.count, using: &rng)
      if point < t.count { t.insert(".", at: t.index(t.startIndex, offsetBy: point)) }
      if t.hasPrefix(".") { t = "0" + t }
      if t.hasSuffix(".") { t += "0" }
      texts.append(Bool.random(using: &rng) ? "-" + t : t)
    }
    var fast = 0
    for t in texts where check(row(score: t)) != nil { fast += 1 }
    #expect(fast > 1000)
    #expect(check(row(score: "1e5")) == nil)
    #expect(check(row(score: "01.5")) == nil)
  }

  private func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { a, _ in a * 10 } }

  @Test func otherLinesAreLeftToTheFullPath() {
    let lines = [
      row(id: "01"), row(id: "1.0"), row(id: "12345678901234567890"), row(id: "null"), row(id: "\"1\""),
      row(name: "\"a\\nb\""), row(name: "null"), row(name: "\"\u{01}\""), row(score: "null"), row(score: "1e400"),
      row(date: "{\"$date\":{\"seconds\":1,\"nanoseconds\":0}}"), row(date: "{\"$date\":\"2023-02-30T00:00:00Z\"}"),
      row(date: "{\"$date\":\"x\",\"y\":1}"), row(flag: "1"), row(flag: "truex"), row(n: "1x"),
      "{\"$class\":\"Row\",\"id\":1}",  // missing properties
      row() + "x", row().replacingOccurrences(of: "\"flag\":true", with: "\"flag\":true,\"flag\":true"),
      row().replacingOccurrences(of: "\"flag\"", with: "\"other\""),
      "{\"$class\":\"Nope\"}", "{\"$class\":\"Tag\",\"label\":\"a\",\"w\":1.5}", "[]", "", "   ", "{}",
      "{\"$key\":1,\"$class\":\"Row\"}",
    ]
    for line in lines { #expect(check(line) == nil, "\(line)") }
    // Invalid UTF-8 in a string: refused by both.
    var bad = Array(row(name: "\"ab\"").utf8)
    let at = bad.firstIndex(of: UInt8(ascii: "b"))!
    bad[at] = 0xFF
    var last = -1
    #expect(bad.withUnsafeBufferPointer { decoder.decodeSimpleLine($0, lastClass: &last) } == nil)
  }

  /// Single links to a top-level class (`{"$ref":…,"$key":n}` exactly) take the fast path
  /// with the full path's value; embedded objects, lists, other shapes and wrong classes
  /// are the full path's.
  @Test func linksTakeTheFastPath() {
    let schema = Schema(
      schemaVersion: nil, fileFormat: 24,
      classes: [
        ObjectSchema(
          name: "Node",
          properties: [
            Property(name: "id", type: .int), Property(name: "parent", type: .object, objectType: "Node", isOptional: true),
            Property(name: "home", type: .object, objectType: "Place", isOptional: true),
          ]),
        ObjectSchema(name: "Place", isEmbedded: true, properties: [Property(name: "x", type: .int)]),
        ObjectSchema(name: "Other", properties: [Property(name: "y", type: .int)]),
      ])
    let decoder = CanonicalDecoder(schema: schema)
    func fast(_ parent: String, home: String = "null") -> DecodedObject? {
      let line = "{\"$class\":\"Node\",\"$key\":4,\"id\":1,\"parent\":\(parent),\"home\":\(home)}"
      let bytes = Array(line.utf8)
      var last = -1
      let object = bytes.withUnsafeBufferPointer { decoder.decodeSimpleLine($0, lastClass: &last) }
      if let object {
        let full = try? decoder.decodeLine(bytes, line: 1)
        expectEqual(full.map { same(object, $0) }, true, "\(line)")
      }
      return object
    }
    expectEqual(fast("{\"$ref\":\"Node\",\"$key\":2}")?.values[1], .link(ObjectLink(className: "Node", key: 2)))
    expectEqual(fast(" { \"$ref\" : \"Node\" , \"$key\" : 0 } ")?.values[1], .link(ObjectLink(className: "Node", key: 0)))
    expectEqual(fast("null")?.values[1], .null)
    for other in [
      "{\"$ref\":\"Other\",\"$key\":2}", "{\"$ref\":\"Nope\",\"$key\":2}", "{\"$key\":2,\"$ref\":\"Node\"}",
      "{\"$ref\":\"Node\",\"$key\":2,\"x\":1}", "{\"$ref\":\"Node\",\"$key\":\"2\"}", "{\"$ref\":\"Node\"}", "2", "[]",
    ] {
      #expect(fast(other) == nil, "\(other)")
    }
    #expect(fast("null", home: "{\"x\":1}") == nil)
  }

  @Test func consecutiveClassesShareTheLastOne() {
    var last = -1
    for line in [row(), row(id: "2")] {
      let bytes = Array(line.utf8)
      let object = bytes.withUnsafeBufferPointer { decoder.decodeSimpleLine($0, lastClass: &last) }
      expectEqual(object?.className, "Row")
      expectEqual(last, 0)
    }
  }
}
