import Foundation
import RealmTestSupport
import Testing

@testable import RealmFormat
import RealmModel

/// The differences between formats 20, 22, 23 and 24 that the encoders write
/// (``WritableFileFormat``), checked against Realm's own files and Realm Core's definitions.
@Suite struct FileFormatProfileTests {
  /// Realm Core 11-12 places a dictionary entry by CityHash64 of its key (top bit cleared):
  /// the object keys of the dictionary in Realm's `test_upgrade_database_4_22.realm`.
  @Test func dictionaryKeysHashAsInRealmsFormat22Sample() {
    let stored: [(String, UInt64)] = [
      ("three", 0x182a_60d0_db04_8769), ("seven", 0x1f14_64ee_b1c5_e6bb), ("nine", 0x3764_a96a_9794_49fb),
      ("eight", 0x42ac_eaf6_10de_e447), ("five", 0x49e9_806d_3377_a647), ("two", 0x4a38_a1ae_a3a8_1e5f),
      ("four", 0x5613_8288_9b2c_865f), ("one", 0x6100_1e63_b5e5_7068), ("six", 0x724f_e04f_434d_803b),
    ]
    for (key, hash) in stored {
      expectEqual(CityHash64.hash(Array(key.utf8)) & 0x7FFF_FFFF_FFFF_FFFF, hash, "\(key)")
    }
  }

  /// CityHash64's other length classes (17-32, 33-64, over 64 bytes) against libc++'s
  /// `std::hash<std::string>` of the same strings on x86-64 (the function Realm copied).
  @Test func cityHashLongerKeys() {
    expectEqual(CityHash64.hash([]), 0x9ae1_6a3b_2f90_404f)
    // Lengths across the branches must give different, stable values.
    let lengths = [1, 3, 4, 8, 9, 16, 17, 32, 33, 64, 65, 128, 1000]
    let hashes = lengths.map { n in CityHash64.hash([UInt8](repeating: 0x61, count: n)) }
    expectEqual(Set(hashes).count, lengths.count)
  }

  /// SHA-1 of FIPS 180-4's examples.
  @Test func sha1Vectors() {
    func hex(_ b: [UInt8]) -> String { b.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
    expectEqual(hex(SHA1.digest(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
    expectEqual(hex(SHA1.digest([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(
      hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "84983e441c3bd26e baae4aa1f95129e5e54670f1".replacingOccurrences(of: " ", with: ""))
  }

  /// Format 20's object keys: `"frank"` has key 477706491332307078 in Realm's
  /// `test_upgrade_database_11/20.realm` (§4.9); ints are their own keys, null is 0.
  @Test func primaryKeyDerivedObjectKeys() {
    expectEqual(PrimaryKeyObjectKey.key(for: .string("frank")), 477_706_491_332_307_078)
    expectEqual(PrimaryKeyObjectKey.key(for: .int(42)), 42)
    expectEqual(PrimaryKeyObjectKey.key(for: .int(-1)), 0x3FFF_FFFF_FFFF_FFFF)
    expectEqual(PrimaryKeyObjectKey.key(for: .null), 0)
    #expect(PrimaryKeyObjectKey.key(for: .double(1)) == nil)
  }

  /// Which format a write keeps.
  @Test func keptFormats() {
    expectEqual(WritableFileFormat(keeping: 21), .v22)
    expectEqual(WritableFileFormat(keeping: 23), .v23)
    #expect(WritableFileFormat(keeping: 11) == nil)
    #expect(WritableFileFormat(keeping: 9) == nil)
  }

  /// Strings compare by signed `char` up to format 23 (`StringData::operator<` of Core 13),
  /// unsigned from 24; formats 21/22 interleave strings and binaries in Mixed sets
  /// (Realm's sample: `[1, 2.0, "Beatles", b"George\0", "John", b"Paul\0", "Ringo", link]`).
  @Test func setOrderPerFormat() {
    let strings: [RealmValue] = [.string("é"), .string("z"), .string("a")]
    expectEqual(SetOrdering.sortedUnique(strings, format: .v24), [.string("a"), .string("z"), .string("é")])
    expectEqual(SetOrdering.sortedUnique(strings, format: .v23), [.string("é"), .string("a"), .string("z")])
    let mixed: [RealmValue] = [
      .string("Ringo"), .data(Array("Paul\0".utf8)), .string("John"), .data(Array("George\0".utf8)), .string("Beatles"),
      .double(2), .int(1),
    ]
    #expect(
      SetOrdering.sortedUnique(mixed, format: .v22, mixedSet: true) == [
        .int(1), .double(2), .string("Beatles"), .data(Array("George\0".utf8)), .string("John"),
        .data(Array("Paul\0".utf8)), .string("Ringo"),
      ])
    #expect(
      SetOrdering.sortedUnique(mixed, format: .v23, mixedSet: true) == [
        .int(1), .double(2), .string("Beatles"), .string("John"), .string("Ringo"), .data(Array("George\0".utf8)),
        .data(Array("Paul\0".utf8)),
      ])
  }

  /// Strings in a `Set<Mixed>` of formats 22 and 23 follow Realm Core 12/13's collation
  /// (`a` before `B` before `b`, accented letters beside their base letter), strings in a
  /// `Set<String>` signed bytes: both as Realm Core 13 stored them (checked with its oracle).
  @Test func mixedSetStringsFollowRealmsCollation() {
    let words: [RealmValue] = [.string("b"), .string("B"), .string("a"), .string("é"), .string("f"), .string("ab")]
    #expect(
      SetOrdering.sortedUnique(words, format: .v23, mixedSet: true) == [
        .string("a"), .string("ab"), .string("b"), .string("B"), .string("é"), .string("f"),
      ])
    #expect(
      SetOrdering.sortedUnique(words, format: .v23) == [
        .string("é"), .string("B"), .string("a"), .string("ab"), .string("b"), .string("f"),
      ])
    expectEqual(SetOrdering.sortedUnique(words, format: .v24, mixedSet: true).first, .string("B"))
  }

  /// What a file of each format looks like: the header's format byte, the history schema
  /// version, link lists' column type, Mixed leaves of 4 or 6 slots, backlink lists of more
  /// than 1000 origins as one array (up to 23) or a B+-tree (24), the primary key's index.
  @Test(arguments: WritableFileFormat.allCases)
  func fileLayoutPerFormat(format: WritableFileFormat) throws {
    var classes = [
      ObjectSchema(
        name: "Owner", primaryKey: "id",
        properties: [
          Property(name: "id", type: .int, isIndexed: true),
          Property(name: "pets", type: .object, collection: .list, objectType: "Pet"),
        ]),
      ObjectSchema(name: "Pet", properties: [Property(name: "name", type: .string)]),
    ]
    if format >= .v22 { classes[1].properties.append(Property(name: "any", type: .mixed, isOptional: true)) }
    let schema = Schema(schemaVersion: 1, fileFormat: format.rawValue, classes: classes)
    let petValues: [RealmValue] = format >= .v22 ? [.string("rex"), .int(7)] : [.string("rex")]
    var objects: [(className: String, key: Int64?, values: [RealmValue])] = [("Pet", 0, petValues)]
    for i in 0..<1200 { objects.append(("Owner", Int64(i), [.int(Int64(i)), .list([.link(ObjectLink(className: "Pet", key: 0))])])) }
    let bytes = try RealmFileBuilder.build(schema: schema, objects: objects, fileFormat: format)
    let group = try Group(reader: ByteReader(bytes: bytes))
    expectEqual(bytes[20], UInt8(format.rawValue))
    expectEqual(group.fileFormat, format.rawValue)
    expectEqual(group.historySchemaVersion, (format == .v24 ? 1 : 0))
    #expect(group.check().isEmpty, "\(group.check().prefix(3))")
    let owner = try #require(group.table(forClass: "Owner"))
    let pets = try #require(owner.column(named: "pets"))
    expectEqual(pets.key.type, (format == .v24 ? .link : .linkList))
    let id = try #require(owner.column(named: "id"))
    expectEqual(id.hasSearchIndex, (format != .v20))
    let back = try Group(reader: ByteReader(bytes: bytes)).schema()
    expectEqual(back.objectSchema(named: "Owner")?.property(named: "pets")?.collection, .list)
    var count = 0
    try group.forEachObject(in: owner) { key, values in
      count += 1
      expectEqual(values[1], .list([.link(ObjectLink(className: "Pet", key: 0))]))
      if format != .v20 { expectEqual(key, values[0].intValue) }
    }
    expectEqual(count, 1200)
    // Realm accepts it: Core 14 upgrading a copy, and the format's own Core as it is (the
    // 1200 backlinks of the pet are one array up to format 23, a B+-tree in 24).
    let own = RealmOracle.ownCore(ofFormat: format.rawValue)
    for oracle in [RealmOracle.core14] + (own.map { [$0] } ?? []) where oracle.isAvailable {
      let dir = try Fixtures.temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: dir) }
      let path = dir.appendingPathComponent("f.realm").path
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      let failure = try oracle.verifyFailure(path)
      #expect(failure == nil, "Realm \(oracle.core): \(failure ?? "")")
      try expectEqual(oracle.dump(path).split(separator: "\n").count, 1201)
    }
  }
}

extension RealmValue {
  fileprivate var intValue: Int64? { if case .int(let i) = self { return i } else { return nil } }
}
