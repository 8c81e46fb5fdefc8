import Foundation
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmJSON

@Suite struct CanonicalCodecTests {
  static let schema = Schema(
    schemaVersion: 1, fileFormat: 24,
    classes: [
      ObjectSchema(
        name: "Doc", primaryKey: "id",
        properties: [
          Property(name: "id", type: .int, isIndexed: true),
          Property(name: "f", type: .float),
          Property(name: "d", type: .double, isOptional: true),
          Property(name: "m", type: .mixed, isOptional: true),
          Property(name: "when", type: .date, isOptional: true),
          Property(name: "dec", type: .decimal128, collection: .set, isOptional: true),
          Property(name: "bin", type: .data, isOptional: true),
          Property(name: "ids", type: .objectId, collection: .list),
          Property(name: "u", type: .uuid, isOptional: true),
          Property(name: "tags", type: .string, collection: .dictionary),
          Property(name: "friend", type: .object, objectType: "Doc", isOptional: true),
          Property(name: "spot", type: .object, objectType: "Spot", isOptional: true),
        ]),
      ObjectSchema(
        name: "Spot", isEmbedded: true,
        properties: [
          Property(name: "any", type: .mixed, isOptional: true),
          Property(name: "x", type: .double),
        ]),
    ])
  static var doc: ObjectSchema { schema.classes[0] }

  static let values: [RealmValue] = [
    .int(.min),
    .float(.nan),
    .double(-0.0),
    .list([
      .double(3.5), .float(-.infinity), .dictionary([DictionaryEntry("k", .list([.float(1.5)]))]),
      .link(ObjectLink(className: "Doc", key: 9)), .null,
    ]),
    .date(Timestamp(seconds: -1, nanoseconds: -1)),
    .set([.decimal128(Decimal128(text: "-0.001")!), .null, .decimal128(.realmNull)]),
    .data([0, 1, 2, 255]),
    .list([.objectId(ObjectId(hexString: "5f1b2c3d4e5f6a7b8c9d0e1f")!)]),
    .uuid(RealmUUID(uuidString: "F3A7777F-ACAB-A3A6-6BFB-371C84DAEF38")!),
    .dictionary([DictionaryEntry("b", .string("\u{0}\"")), DictionaryEntry("a", .string("é"))]),
    .link(ObjectLink(className: "Doc", key: 3)),
    .embedded(
      EmbeddedObject(
        className: "Spot", key: 0,
        properties: [
          NamedValue("any", .double(2)), NamedValue("x", .double(2)),
        ])),
  ]

  static let line =
    #"{"$class":"Doc","$key":-1,"id":-9223372036854775808,"f":{"$float":"NaN"},"d":-0.0,"#
    + #""m":[{"$double":3.5},{"$float":"-Infinity"},{"k":[{"$float":1.5}]},{"$ref":"Doc","$key":9},null],"#
    + #""when":{"$date":"1969-12-31T23:59:58.999999999Z"},"dec":[{"$decimal":"-0.001"},null,{"$decimal":"NaN"}],"#
    + #""bin":{"$binary":"AAEC/w=="},"ids":[{"$oid":"5f1b2c3d4e5f6a7b8c9d0e1f"}],"#
    + #""u":{"$uuid":"f3a7777f-acab-a3a6-6bfb-371c84daef38"},"tags":{"b":"\u0000\"","a":"é"},"#
    + #""friend":{"$ref":"Doc","$key":3},"spot":{"$class":"Spot","any":{"$double":2},"x":2}}"#

  @Test func encodesEveryKindOfValue() {
    var w = JSONWriter()
    CanonicalEncoder(schema: Self.schema).appendLine(Self.doc, key: -1, values: Self.values, to: &w)
    expectEqual(String(decoding: w.buffer, as: UTF8.self), Self.line + "\n")
  }

  @Test func decodesWhatItEncodes() throws {
    let decoded = try CanonicalDecoder(schema: Self.schema).decodeLine(
      Array(Self.line.utf8), line: 1)
    expectEqual(decoded.className, "Doc")
    expectEqual(decoded.key, -1)
    expectEqual(decoded.values.count, Self.values.count)
    // NaN is never equal to itself, so compare the encodings.
    var a = JSONWriter()
    var b = JSONWriter()
    let enc = CanonicalEncoder(schema: Self.schema)
    enc.appendLine(Self.doc, key: -1, values: decoded.values, to: &a)
    enc.appendLine(Self.doc, key: -1, values: Self.values, to: &b)
    expectEqual(a.buffer, b.buffer)
    expectEqual(decoded.values[10], .link(ObjectLink(className: "Doc", key: 3)))
    if case .embedded(let e) = decoded.values[11] {
      expectEqual(e.properties, [NamedValue("any", .double(2)), NamedValue("x", .double(2))])
    } else {
      Issue.record("spot is not embedded: \(decoded.values[11])")
    }
  }

  @Test func rendersSingleValuesAsText() {
    let enc = CanonicalEncoder(schema: Self.schema)
    expectEqual(enc.text(of: .string("Ada")), #""Ada""#)
    expectEqual(enc.text(of: .double(1.5)), "1.5")
    expectEqual(enc.text(of: .double(1.5), inMixed: true), #"{"$double":1.5}"#)
    expectEqual(enc.text(of: .float(-.infinity)), #"{"$float":"-Infinity"}"#)
    #expect(
      enc.text(of: .date(Timestamp(seconds: 0, nanoseconds: 1)))
        == #"{"$date":"1970-01-01T00:00:00.000000001Z"}"#)
  }

  @Test func writesDatesOutsideYears1To9999AsSeconds() {
    var w = JSONWriter()
    let enc = CanonicalEncoder(schema: Self.schema)
    enc.writeValue(
      .date(Timestamp(seconds: -62_135_596_801, nanoseconds: 0)), inMixed: false, to: &w)
    enc.writeValue(
      .date(Timestamp(seconds: -1_099_511_627_776, nanoseconds: -5)), inMixed: false, to: &w)
    #expect(
      String(decoding: w.buffer, as: UTF8.self)
        == #"{"$date":{"seconds":-62135596801,"nanoseconds":0}}{"$date":{"seconds":-1099511627776,"nanoseconds":-5}}"#
    )
  }

  @Test func prettyPrintsObjectsWithCompactWrappers() {
    var w = JSONWriter(indent: 2)
    let cls = ObjectSchema(
      name: "P",
      properties: [
        Property(name: "a", type: .objectId), Property(name: "l", type: .int, collection: .list),
      ])
    CanonicalEncoder(schema: Schema(schemaVersion: nil, fileFormat: 24, classes: [cls]))
      .writeObject(
        cls, key: 1, values: [.objectId(ObjectId(high: 0, low: 1)), .list([.int(1)])], to: &w)
    #expect(
      String(decoding: w.buffer, as: UTF8.self) == """
        {
          "$class": "P",
          "$key": 1,
          "a": {"$oid":"000000000000000000000001"},
          "l": [
            1
          ]
        }
        """)
  }

  private func decodeError(_ text: String, _ policy: CanonicalDecoder.MissingProperties = .reject)
    -> String
  {
    do {
      _ = try CanonicalDecoder(schema: Self.schema, missingProperties: policy).decodeLine(
        Array(text.utf8), line: 7)
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func reportsPreciseErrors() {
    let base = #""$class":"Doc","$key":1,"#
    func line(_ props: String) -> String {
      "{" + base + props + "}"
    }
    let rest =
      #""m":null,"when":null,"dec":[],"bin":null,"ids":[],"u":null,"tags":{},"friend":null,"spot":null"#
    #expect(
      decodeError(line(#""id":"x","f":1,"d":null,"# + rest))
        == "line 7: Doc.id: expected an integer, found a string 'x'")
    #expect(
      decodeError(line(#""id":1,"f":null,"d":null,"# + rest))
        == "line 7: Doc.f: expected a float, found null (the property is required)")
    #expect(
      decodeError(line(#""id":1,"f":1e39,"d":null,"# + rest))
        == "line 7: Doc.f: 1e+39 is out of range for a float")
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(of: #""ids":[]"#, with: #""ids":[{"$oid":"12"}]"#)))
        == "line 7: Doc.ids[0]: '12' is not an ObjectId (24 hex digits)")
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(
              of: #""friend":null"#, with: #""friend":{"$ref":"Spot","$key":1}"#)))
        == "line 7: Doc.friend: link to unknown or embedded class 'Spot'")
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(
              of: #""spot":null"#, with: #""spot":{"$class":"Spot","x":"1"}"#)))
        == "line 7: Doc.spot.x: expected a number or {\"$double\":\"NaN\"|\"Infinity\"|\"-Infinity\"}, found a string '1'"
    )
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(of: #""tags":{}"#, with: #""tags":{"$x":"y"}"#)))
        == "line 7: Doc.tags: dictionary key '$x' must not start with '$' or contain '.'")
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(of: #""when":null"#, with: #""when":{"$date":"yesterday"}"#)
        ))
        == "line 7: Doc.when: 'yesterday' is not a date of the form YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ")
    #expect(
      decodeError(line(#""id":1,"f":1,"d":null,"nope":1,"# + rest))
        == "line 7: Doc: class 'Doc' has no property 'nope'")
    expectEqual(decodeError(line(#""id":1,"f":1,"# + rest)), "line 7: Doc: property 'd' is missing")
    #expect(
      decodeError(#"{"$class":"Spot","x":1}"#)
        == "line 7: $class: 'Spot' is an embedded class; its objects appear inline in their parent, not as lines"
    )
    expectEqual(decodeError(#"{"$class":"Nope"}"#), "line 7: $class: unknown class 'Nope'")
    expectEqual(decodeError(#"{"$class":"Doc","#), "line 7: column 17: expected a string key")
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(of: #""m":null"#, with: #""m":{"$foo":1}"#))
      )
      .hasPrefix("line 7: Doc.m: unknown wrapper '$foo'"))
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(
              of: #""m":null"#, with: #""m":[1,2,{"k":[{"$float":"x"}]}]"#)))
        == #"line 7: Doc.m[2].k[0]: invalid '$float' value in an object with keys '$float'"#)
    #expect(
      decodeError(
        line(
          #""id":1,"f":1,"d":null,"#
            + rest.replacingOccurrences(of: #""tags":{}"#, with: #""tags":{"a":"x","b":7}"#)))
        == "line 7: Doc.tags.b: expected a string, found the integer 7")
  }

  @Test func fillsOrListsMissingPropertiesOnRequest() throws {
    let text = #"{"$class":"Doc","id":5,"d":1.5}"#
    let filled = try CanonicalDecoder(schema: Self.schema, missingProperties: .useDefaults)
      .decodeLine(Array(text.utf8), line: 1)
    #expect(filled.key == nil)
    expectEqual(filled.values[0], .int(5))
    expectEqual(filled.values[1], .float(0))
    expectEqual(filled.values[2], .double(1.5))
    expectEqual(filled.values[7], .list([]))
    expectEqual(filled.values[9], .dictionary([]))
    expectEqual(filled.values[3], .null)
    expectEqual(filled.missing, [1, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    let partial = try CanonicalDecoder(schema: Self.schema, missingProperties: .allow).decodeLine(
      Array(text.utf8), line: 1)
    expectEqual(partial.values[1], .null)
    expectEqual(partial.missing, filled.missing)
  }

  @Test func floatsReadBackToTheSameBits() throws {
    let cls = ObjectSchema(
      name: "F",
      properties: [Property(name: "f", type: .float), Property(name: "d", type: .double)])
    let schema = Schema(schemaVersion: nil, fileFormat: 24, classes: [cls])
    let enc = CanonicalEncoder(schema: schema)
    let dec = CanonicalDecoder(schema: schema)
    var rng = SeededRandom(seed: 99)
    var w = JSONWriter()
    for i in 0..<5000 {
      let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
      let d = Double(bitPattern: rng.next())
      w.reset()
      enc.appendLine(cls, key: Int64(i), values: [.float(f), .double(d)], to: &w)
      let back = try dec.decodeLine(Array(w.buffer.dropLast()), line: i + 1)
      guard case .float(let f2) = back.values[0], case .double(let d2) = back.values[1] else {
        Issue.record("shape")
        continue
      }
      if f.isNaN { #expect(f2.isNaN) } else { expectEqual(f2.bitPattern, f.bitPattern, "\(f)") }
      if d.isNaN { #expect(d2.isNaN) } else { expectEqual(d2.bitPattern, d.bitPattern, "\(d)") }
    }
  }
}

@Suite struct JSONLineSplitterTests {
  @Test func splitsAcrossChunksAndCountsBlankLines() throws {
    let text = Array("{\"a\":1}\r\n\n  \n{\"b\":\n2}\n{\"c\":3}".utf8)
    for chunkSize in [1, 2, 3, 7, 100] {
      var splitter = JSONLineSplitter()
      var got: [(String, Int)] = []
      var i = 0
      while i < text.count {
        let chunk = Array(text[i..<min(text.count, i + chunkSize)])
        try splitter.feed(chunk) { got.append((String(decoding: $0, as: UTF8.self), $1)) }
        i += chunkSize
      }
      try splitter.finish { got.append((String(decoding: $0, as: UTF8.self), $1)) }
      expectEqual(got.map(\.0), ["{\"a\":1}", "{\"b\":", "2}", "{\"c\":3}"], "chunk \(chunkSize)")
      expectEqual(got.map(\.1), [1, 4, 5, 6])
    }
  }

  @Test func refusesOverlongLines() {
    var splitter = JSONLineSplitter(maxLineLength: 4)
    #expect(throws: CanonicalDecodingError.self) {
      try splitter.feed(Array("ok\n123456".utf8)) { _, _ in }
    }
  }

  @Test func mixedLinksMustNameATopLevelClass() {
    let text =
      #"{"$class":"Doc","$key":1,"id":1,"f":1,"d":null,"m":{"$ref":"Spot","$key":0},"when":null,"dec":[],"bin":null,"ids":[],"u":null,"tags":{},"friend":null,"spot":null}"#
    #expect(
      throws: CanonicalDecodingError(
        line: 3, path: "Doc.m", message: "link to unknown or embedded class 'Spot'")
    ) {
      try CanonicalDecoder(schema: CanonicalCodecTests.schema).decodeLine(Array(text.utf8), line: 3)
    }
  }
}
