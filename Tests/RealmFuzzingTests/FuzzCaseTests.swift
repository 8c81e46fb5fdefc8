import Foundation
import RealmFormat
import RealmJSON
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmFuzzing

/// Every input a fuzzing campaign ever found (crashes, hangs, out-of-memory runs, broken
/// promises), kept in `Tests/FuzzCases/<target>/`, replayed through the same logic as the
/// fuzzer (``FuzzTarget/run``), without libFuzzer: each must now be handled as promised.
@Suite struct FuzzCaseTests {
  /// `Tests/FuzzCases`.
  static let root = Fixtures.root.deletingLastPathComponent().appendingPathComponent("FuzzCases")

  /// One kept input.
  struct Case: CustomStringConvertible, Sendable {
    var target: String
    var file: String
    var description: String { "\(target)/\(file)" }
  }

  /// Every kept input of every target (`README.md` files aside).
  static let cases: [Case] = FuzzTarget.all.flatMap { target in
    let dir = root.appendingPathComponent(target.name).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted().map { Case(target: target.name, file: $0) }
  }

  /// The bytes of a kept input: the file itself, or for `NAME.patch` (an input that is a large
  /// fixture with a few bytes changed) the fixture named on its `base` line with the bytes of
  /// its `offset byte` lines (hexadecimal) put in.
  static func input(_ path: String) throws -> [UInt8] {
    let data = [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    guard path.hasSuffix(".patch") else { return data }
    var bytes: [UInt8] = []
    var size: Int?
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: " ")
      guard fields.count == 2 else { throw PatchError(line: String(line)) }
      switch fields[0] {
      case "base":
        let base = Fixtures.root.deletingLastPathComponent().appendingPathComponent(String(fields[1]))
        bytes = [UInt8](try Data(contentsOf: base))
      case "size":
        size = Int(fields[1])
      default:
        guard let offset = Int(fields[0], radix: 16), let byte = UInt8(fields[1], radix: 16), offset < bytes.count else {
          throw PatchError(line: String(line))
        }
        bytes[offset] = byte
      }
    }
    guard size == bytes.count else { throw PatchError(line: "size \(size ?? -1) for a base of \(bytes.count) bytes") }
    return bytes
  }

  struct PatchError: Error { var line: String }

  @Test func everyTargetHasAFolder() {
    for target in FuzzTarget.all {
      var isDirectory: ObjCBool = false
      let path = Self.root.appendingPathComponent(target.name).path
      #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue, "\(path)")
    }
  }

  @Test(arguments: cases)
  func keptInputIsHandled(_ kept: Case) throws {
    let target = try #require(FuzzTarget.named(kept.target))
    let bytes = try Self.input("\(kept.target)/\(kept.file)")
    let problems = target.run(bytes)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }
}

/// The targets themselves: their seed corpora build, and the unchanged seeds (real files,
/// plans and data) pass every check, so a finding is never a false alarm of the harness.
@Suite struct FuzzTargetTests {
  @Test(arguments: FuzzTarget.all.map(\.name))
  func seedsBuildAndPass(_ name: String) throws {
    let target = try #require(FuzzTarget.named(name))
    let seeds = try target.seeds(.checkout)
    #expect(seeds.count >= 5, "\(name): \(seeds.count) seeds")
    expectEqual(Set(seeds.map(\.name)).count, seeds.count, "seed names are unique")
    // A spread of seeds, not all of them: the campaign runs them all anyway.
    let step = max(1, seeds.count / 6)
    for seed in stride(from: 0, to: seeds.count, by: step).map({ seeds[$0] }) {
      let problems = target.run(seed.bytes)
      #expect(problems.isEmpty, "\(name) seed \(seed.name): \(problems.joined(separator: "\n"))")
    }
  }

  /// The seeds cut from the large reading fixtures keep every class, and read back.
  @Test func cutDownFilesKeepEveryClass() throws {
    let cut = try CutDownFiles.build(.checkout)
    expectEqual(cut.map(\.0), ["alltypes-8", "strings-8", "embedded-8", "nested-links-8"])
    for (name, bytes) in cut {
      let group = try Group(reader: ByteReader(bytes: bytes))
      let expected = try SchemaJSON.decode(try FuzzResources.checkout.bytes(FuzzResources.checkout.fixture("\(name.split(separator: "-").dropLast().joined(separator: "-"))/schema.json")))
      try expectEqual(group.schema().classes.map(\.name), expected.classes.map(\.name), "\(name)")
      #expect(bytes.count < 256 << 10, "\(name): \(bytes.count) bytes")
    }
  }
}
