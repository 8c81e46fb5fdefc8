import Foundation
import RealmFormat
import RealmModel
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmQuery

/// String conditions on the stored bytes of the leaves (``StringLeafScan``: fixed-width slots
/// of short-string leaves, raw bytes of the medium and big forms) give what the decoded
/// strings give: the same keys as the scan on decoded values and the object-by-object
/// evaluation (which repair bytes that are not UTF-8 as `String(decoding:as:)` does) on strings
/// of every leaf form and width, nulls, empty strings, non-ASCII text, patterns at the slots'
/// edges, and bytes that are not UTF-8.
@Suite struct StringLeafScanTests {
  static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Item", properties: [
      Property(name: "n", type: .int),
      Property(name: "s", type: .string),
      Property(name: "os", type: .string, isOptional: true),
    ])
  ])

  /// Strings for one cluster leaf each (256 objects): slots 4, 8 and 16 bytes wide, the
  /// medium form (16 to 63 bytes), the big form (64 bytes and more), then all of them mixed.
  /// `~#~` marks where ``invalidUTF8File()`` writes bytes that are not UTF-8.
  static let groups: [[String]] = [
    ["", "a", "ab", "abc", "ABC", "é", "É", "x", "Ab", "bc", "~#~"],
    ["abcdefg", "ABCDEFG", "été", "ÉTÉ", "Été x", "\u{1F600}", "日本", "abcd", "xabc", "a~#~", "fg"],
    [
      "abcdefghijklmno", "ABCDEFGHIJKLMNO", "mno", "xxabcxx", "été été", "name 99999", "name 999990", "99999",
      "ÀÉÎàéî", "日本語テキ", "abc~#~def", "noMNO",
    ],
    [
      "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ abc", "a medium string of été text",
      "\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}", "name 99999 and more text here", "medium ~#~ with bad bytes",
    ],
    [
      String(repeating: "abcdefghij", count: 8), String(repeating: "ÉTÉ été ", count: 12) + "end",
      "big " + String(repeating: "x", count: 90) + " abc", "big ~#~ " + String(repeating: "y", count: 80),
    ],
  ]

  static func strings(_ n: Int) -> (String, String?) {
    let group = n / 256 < groups.count ? groups[n / 256] : groups[n % groups.count]
    let s = group[n % group.count]
    let os: String? = n % 5 == 0 ? nil : group[(n / 2) % group.count]
    return (s, os)
  }

  static func file() throws -> [UInt8] {
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for n in 0..<(256 * (groups.count + 1)) {
      let (s, os) = strings(n)
      _ = try builder.append(className: "Item", key: nil, values: [.int(Int64(n)), .string(s), os.map { .string($0) } ?? .null])
    }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    return builder.sink.bytes
  }

  /// The file with every `~#~` replaced by bytes that are not UTF-8: a lead byte without its
  /// continuation, a byte never in UTF-8, a lone continuation byte.
  static func invalidUTF8File() throws -> [UInt8] {
    var bytes = try file()
    let marker = Array("~#~".utf8)
    var i = 0
    var replaced = 0
    while i + marker.count <= bytes.count {
      if bytes[i..<(i + marker.count)].elementsEqual(marker) {
        bytes.replaceSubrange(i..<(i + 3), with: [0xE9, 0xFF, 0x80])
        replaced += 1
        i += 3
      } else {
        i += 1
      }
    }
    precondition(replaced > 0)
    return bytes
  }

  static let patterns = [
    "a", "A", "é", "É", "x", "ab", "abc", "ABC", "bc", "fg", "mno", "MNO", "abcd", "Été", "ÉTÉ", "été", "日本", "\u{1F600}",
    "abcdefg", "abcdefgh", "name 9999", "99999", "abcdefghijklmno", "abcdefghijklmnop", "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "abcdefghijabcdefghij", "noMNO", "\u{FFFD}", "c\u{FFFD}", "bad", "y", "end", "x abc", " ",
  ]

  static let operators = [
    "==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "==[c]", "!=[c]", "BEGINSWITH[c]", "ENDSWITH[c]", "CONTAINS[c]",
  ]

  static func queries(_ property: String) -> [String] {
    patterns.flatMap { p in operators.map { "\(property) \($0) '\(p)'" } }
  }

  /// The differences between the leaf scan, the scan on decoded values and the
  /// object-by-object evaluation for each query ("" when they agree).
  static func compare(_ texts: [String], _ group: Group) throws -> [String] {
    var problems: [String] = []
    for text in texts {
      var query = try RealmQuery(text, className: "Item", schema: schema, group: group)
      let plan = try query.plan(in: group, useIndexes: false)
      let expected = try QueryScanPathTests.objectByObject(query, group)
      for options in [RealmQuery.ScanOptions.standard, QueryScanPathTests.generic] {
        query.scanOptions = options
        let keys = try query.objectKeys(in: group, plan: plan)
        if keys != expected {
          problems.append("\(text) [leaves: \(options.readsLeaves)]: \(keys.prefix(8)) (\(keys.count)) vs \(expected.prefix(8)) (\(expected.count))")
        }
      }
    }
    return problems
  }

  static let bytes = Result { try file() }
  static let invalidBytes = Result { try invalidUTF8File() }

  @Test func theFileHasEveryLeafForm() throws {
    let group = try Group(reader: ByteReader(bytes: Self.bytes.get()))
    var widths: Set<Int> = []
    var otherForms = 0
    try group.forEachObjectRange(in: group.table(forClass: "Item")!) { range in
      try group.forEachSelectionBatch(in: range, filterColumns: [1]) { batch in
        let leaf = try #require(batch.leafColumn(1))
        if let slots = try leaf.shortStringSlots() { widths.insert(slots.width) } else { otherForms += 1 }
      }
    }
    #expect(widths.isSuperset(of: [4, 8, 16]))
    #expect(otherForms >= 2)
  }

  @Test("every path agrees on each leaf form", arguments: ["s", "os"])
  func everyLeafForm(_ property: String) throws {
    let group = try Group(reader: ByteReader(bytes: Self.bytes.get()))
    let problems = try Self.compare(Self.queries(property), group)
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
  }

  @Test("every path agrees on bytes that are not UTF-8", arguments: ["s", "os"])
  func invalidUTF8(_ property: String) throws {
    let group = try Group(reader: ByteReader(bytes: Self.invalidBytes.get()))
    let problems = try Self.compare(Self.queries(property), group)
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
  }

  /// A scan skips a leaf whose string column rules the condition out (alone or as the first
  /// term of an `AND`) before it sets up the leaf's batches.
  @Test func leavesRuledOutByTheirStringColumn() throws {
    let group = try Group(reader: ByteReader(bytes: Self.bytes.get()))
    let problems = try Self.compare([
      "s BEGINSWITH 'abcdefghij' AND n > 1300", "s CONTAINS[c] 'mno' AND os == nil", "s == 'ÉTÉ' AND n < 300",
      "s ENDSWITH 'x' AND (os CONTAINS 'a' OR n > 1500)", "os BEGINSWITH[c] 'big' AND s != 'abc'", "s CONTAINS 'qqq' AND n > 0",
      "n > 1400 AND s CONTAINS 'b'", "s BEGINSWITH 'a' OR s ENDSWITH 'o'",
    ], group)
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
    let query = try RealmQuery("s BEGINSWITH 'abcdefghij' AND n > 1300", className: "Item", schema: Self.schema, group: group)
    expectEqual(QueryBatchFilter(query.predicate, classIndex: query.classIndex).leadingStringScan?.property, 1)
    let notLeading = try RealmQuery("n > 1400 AND s CONTAINS 'b'", className: "Item", schema: Self.schema, group: group)
    #expect(QueryBatchFilter(notLeading.predicate, classIndex: notLeading.classIndex).leadingStringScan == nil)
  }

  @Test func theRepairedTextMatchesWhereU_FFFD_Is() throws {
    // The object-by-object answer sees U+FFFD where the file has bad bytes: the paths agree
    // on a pattern that finds them (the general path), so the check above is not empty.
    let group = try Group(reader: ByteReader(bytes: Self.invalidBytes.get()))
    let query = try RealmQuery("s CONTAINS '\u{FFFD}'", className: "Item", schema: Self.schema, group: group)
    #expect(try query.count(in: group, plan: query.plan(in: group, useIndexes: false)) > 0)
    #expect(StringLeafScan(condition: .contains, pattern: Array("\u{FFFD}".utf8)) == nil)
  }

  @Test func whichPatternsTheLeafScanTakes() {
    func scan(_ c: QueryCondition, _ p: String) -> StringLeafScan? { StringLeafScan(condition: c, pattern: Array(p.utf8)) }
    expectEqual(scan(.beginsWith, "name 99999")?.operation, .beginsWith)
    // No letter folds: compared as bytes.
    expectEqual(scan(.containsIns, "99999")?.mask, [0, 0, 0, 0, 0])
    expectEqual(scan(.containsIns, "日本")?.needle, Array("日本".utf8))
    // ASCII letters fold through the mask, the pattern in lower case.
    expectEqual(scan(.beginsWithIns, "aB1")?.needle, Array("ab1".utf8))
    expectEqual(scan(.beginsWithIns, "aB1")?.mask, [0x20, 0x20, 0])
    // Latin-1 letters, an empty pattern, U+FFFD, orderings and LIKE take the general path.
    #expect(scan(.containsIns, "é") == nil)
    #expect(scan(.contains, "") == nil)
    #expect(scan(.equal, "a\u{FFFD}") == nil)
    #expect(scan(.less, "a") == nil)
    #expect(scan(.like, "a*") == nil)
    #expect(StringLeafScan(condition: .equal, pattern: nil) == nil)
  }

  @Test func aCorruptLengthByteIsAnError() throws {
    // The first short leaf's slots are 4 bytes wide: a length byte above 4 is corrupt.
    var bytes = try Self.file()
    let group = try Group(reader: ByteReader(bytes: bytes))
    var slotStart: Int?
    try group.forEachObjectRange(in: group.table(forClass: "Item")!) { range in
      guard slotStart == nil else { return }
      try group.forEachSelectionBatch(in: range, filterColumns: [1]) { batch in
        if let slots = try batch.leafColumn(1)?.shortStringSlots(), slots.width == 4 {
          slotStart = UnsafeRawPointer(slots.start) - group.reader.base.baseAddress!
        }
      }
    }
    let start = try #require(slotStart)
    bytes[start + 3] = 9
    let broken = try Group(reader: ByteReader(bytes: bytes))
    let query = try RealmQuery("s BEGINSWITH 'a'", className: "Item", schema: Self.schema, group: broken)
    #expect(throws: (any Error).self) { try query.count(in: broken, plan: query.plan(in: broken, useIndexes: false)) }
  }
}
