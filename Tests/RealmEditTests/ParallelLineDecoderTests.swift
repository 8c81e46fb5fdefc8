import Foundation
import RealmModel
import RealmJSON
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmEdit

/// `create`'s parallel reader: lines cut across chunks, blank lines, CRLF and a last line
/// without a break come out in order with their line numbers; the first bad line is the one
/// reported, whichever chunk it is in.
@Suite struct ParallelLineDecoderTests {
  static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "P", properties: [Property(name: "n", type: .int), Property(name: "s", type: .string)]),
  ])

  func write(_ text: String) throws -> String {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("data.jsonl").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    return path
  }

  func read(_ path: String, chunkBytes: Int) throws -> [(Int64, Int)] {
    var decoder = ParallelLineDecoder(decoder: CanonicalDecoder(schema: Self.schema), path: path)
    decoder.chunkBytes = chunkBytes
    decoder.window = 2
    var out: [(Int64, Int)] = []
    try decoder.forEachObject { object, line in
      if case .int(let n) = object.values[0] { out.append((n, line)) }
    }
    return out
  }

  @Test(arguments: [1, 7, 64, 1 << 20])
  func linesComeInOrderWithTheirNumbers(_ chunkBytes: Int) throws {
    var text = ""
    var expected: [(Int64, Int)] = []
    var line = 1
    for i in 0..<300 {
      if i % 17 == 0 {
        text += "  \n"
        line += 1
      }
      text += "{\"$class\":\"P\",\"n\":\(i),\"s\":\"\(String(repeating: "é", count: i % 9))\"}" + (i % 5 == 0 ? "\r\n" : "\n")
      expected.append((Int64(i), line))
      line += 1
    }
    text += "{\"$class\":\"P\",\"n\":300,\"s\":\"end\"}"
    expected.append((300, line))
    let got = try read(try write(text), chunkBytes: chunkBytes)
    expectEqual(got.map(\.0), expected.map(\.0))
    expectEqual(got.map(\.1), expected.map(\.1))
  }

  @Test(arguments: [5, 1 << 20])
  func theFirstBadLineIsReported(_ chunkBytes: Int) throws {
    var lines = (0..<200).map { "{\"$class\":\"P\",\"n\":\($0),\"s\":\"x\"}" }
    lines[150] = "{\"$class\":\"P\",\"n\":\"no\",\"s\":\"x\"}"
    lines[180] = "not json"
    let path = try write(lines.joined(separator: "\n") + "\n")
    let e = try #require(throws: InputError.self) { _ = try read(path, chunkBytes: chunkBytes) }
    #expect("\(e)".contains("line 151"), "\(e)")
  }
}
