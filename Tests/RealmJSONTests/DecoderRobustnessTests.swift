import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmJSON

/// Hostile input: fixture lines and schema documents with bytes flipped, cut or repeated must
/// either decode or throw ``CanonicalDecodingError``; never trap or hang.
@Suite struct DecoderRobustnessTests {
  static func mutate(_ bytes: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
    var b = bytes
    guard !b.isEmpty else { return b }
    switch rng.next() % 4 {
    case 0:
      for _ in 0..<(1 + rng.next() % 4) {
        b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next())
      }
    case 1:
      b = Array(b[0..<Int(rng.next() % UInt64(b.count))])
    case 2:
      // Replace a byte with something structurally interesting.
      let tokens: [[UInt8]] = [
        Array("[".utf8), Array("{".utf8), Array("\"$".utf8), Array("-".utf8),
        Array("1e999".utf8), Array("null".utf8), Array("\\u0000".utf8), Array("9".utf8),
      ]
      let at = Int(rng.next() % UInt64(b.count))
      b.replaceSubrange(at..<(at + 1), with: tokens[Int(rng.next() % UInt64(tokens.count))])
    default:
      let at = Int(rng.next() % UInt64(b.count))
      let len = min(b.count - at, Int(rng.next() % 40))
      b.insert(contentsOf: b[at..<(at + len)], at: at)
    }
    return b
  }

  @Test func mutatedDumpLinesDecodeOrFail() throws {
    var rng = SeededRandom(seed: 2024)
    for fixture in ["alltypes", "embedded", "nested-links"] {
      let schema = try SchemaJSON.decode(try Fixtures.bytes("\(fixture)/schema.json"))
      let decoder = CanonicalDecoder(schema: schema)
      // Short lines keep the test fast in debug builds.
      let lines = try Fixtures.bytes("\(fixture)/dump.jsonl").split(separator: 0x0A)
        .map(Array.init).filter { $0.count < 6000 }.prefix(40)
      var decoded = 0
      var failed = 0
      for (n, line) in lines.enumerated() {
        for _ in 0..<25 {
          let m = Self.mutate(line, &rng)
          do {
            _ = try decoder.decodeLine(m, line: n + 1)
            decoded += 1
          } catch {
            expectEqual(error.line, n + 1)
            #expect(!error.message.isEmpty)
            failed += 1
          }
        }
      }
      #expect(failed > 0)
      expectEqual(decoded + failed, lines.count * 25)
    }
  }

  @Test func mutatedSchemaDocumentsDecodeOrFail() throws {
    var rng = SeededRandom(seed: 77)
    let original = try Fixtures.bytes("alltypes/schema.json")
    var failed = 0
    for _ in 0..<300 {
      do {
        _ = try SchemaJSON.decode(Self.mutate(original, &rng))
      } catch {
        failed += 1
      }
    }
    #expect(failed > 0)
  }
}
