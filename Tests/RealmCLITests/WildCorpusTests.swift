import Foundation
import RealmJSON
import RealmTestSupport
import Testing

/// Real `.realm` files from public app repositories (`../shared/wild`, never copied here;
/// issue 7, "done when" 2): every file Realm can read is read by realmctl exactly as Realm
/// reads it, every Realm file is read but encrypted ones and files damaged in transit, which
/// get their own messages; and every local file of an older format upgrades to a clean
/// format-24 file that still reads as Realm's answer.
@Suite(SharedFixtures.enabled) struct WildCorpusTests {
  struct Entry: CustomStringConvertible {
    var id: String
    var kind: String
    var format: Int
    var path: String
    var answers: URL
    var description: String { "\(id) (\(kind), format \(format))" }
    var hasAnswer: Bool { FileManager.default.fileExists(atPath: answers.appendingPathComponent("schema.json").path) }
  }

  static let entries: [Entry] = {
    guard let root = SharedFixtures.url("wild"),
      let data = FileManager.default.contents(atPath: root.appendingPathComponent("manifest.jsonl").path)
    else { return [] }
    return data.split(separator: 0x0A).compactMap { line -> Entry? in
      guard let json = try? JSONParser.parse(Array(line)), case .string(let file)? = json["file"],
        case .string(let kind)? = json["kind"], case .int(let format)? = json["current_format"]
      else { return nil }
      let id = String(file.dropLast(".realm".count))
      return Entry(
        id: id, kind: kind, format: Int(format), path: root.appendingPathComponent("files/\(file)").path,
        answers: root.appendingPathComponent("answers/\(id)"))
    }
  }()

  @Test func everyFileRealmReadsReadsAsRealmsAnswer() {
    var matched: [Int: Int] = [:]
    for entry in Self.entries where entry.hasAnswer {
      let problems = RealmAnswerCheck.problems(
        realm: entry.path, schema: entry.answers.appendingPathComponent("schema.json"),
        dump: entry.answers.appendingPathComponent("dump.jsonl"))
      #expect(problems.isEmpty, "\(entry): \(problems.joined(separator: "\n"))")
      if problems.isEmpty { matched[entry.format, default: 0] += 1 }
    }
    // The counts docs/file-formats.md gives.
    let total: Int = matched.values.reduce(0, +)
    let legacy: Int = (2...9).map { (format: Int) -> Int in matched[format] ?? 0 }.reduce(0, +)
    let byFormat: [(key: Int, value: Int)] = matched.sorted { $0.key < $1.key }
    expectEqual(total, 131, "\(byFormat)")
    expectEqual(legacy, 62)
  }

  /// The files without an answer from Realm: sync files (Realm refuses them without sync;
  /// realmctl reads them), and what is not readable, each with its own message.
  @Test func everyOtherFileIsReadOrNamed() throws {
    var read = 0
    for entry in Self.entries where !entry.hasAnswer {
      let run = CommandRun(["open", entry.path, "--check"])
      let size = (try? FileManager.default.attributesOfItem(atPath: entry.path)[.size] as? Int) ?? 0
      switch entry.kind {
      case "realm" where size % 8 != 0:
        #expect(run.status == 65 && run.errors.contains("damaged in transfer"), "\(entry): \(run.errors)")
      case "realm":
        expectEqual(run.status, 0, "\(entry): \(run.text)\(run.errors)")
        read += 1
      case "lfs-pointer":
        #expect(run.status == 65 && run.errors.contains("is a Git LFS pointer, not the Realm file"), "\(entry): \(run.errors)")
      case "not-realm":
        #expect(run.status == 65 && run.errors.contains("is not a Realm file"), "\(entry): \(run.errors)")
      default:
        #expect(run.status == 65 && run.errors.contains("encrypted"), "\(entry): \(run.errors)")
      }
    }
    expectEqual(read, 4)
  }

  @Test func everyRealmFileChecksClean() {
    for entry in Self.entries where entry.kind == "realm" {
      let run = CommandRun(["open", entry.path, "--check"])
      let size = (try? FileManager.default.attributesOfItem(atPath: entry.path)[.size] as? Int) ?? 0
      expectEqual(run.status, (size % 8 == 0 ? 0 : 65), "\(entry): \(run.text)\(run.errors)")
    }
  }

  /// Every local file of formats 0-23 with Realm's answer upgrades to a clean format-24 file
  /// whose schema and dump are still Realm's answer (the dump compared with the original's,
  /// which ``everyFileRealmReadsReadsAsRealmsAnswer()`` compares with Realm's).
  @Test func everyOlderFileUpgrades() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var upgraded = 0
    for entry in Self.entries where entry.hasAnswer && entry.format < 24 {
      let problems = try UpgradeCommandTests.upgradeAndCompareWithOriginal(
        entry.path, in: dir, schema: entry.answers.appendingPathComponent("schema.json"))
      #expect(problems.isEmpty, "\(entry): \(problems.joined(separator: "\n"))")
      upgraded += 1
    }
    expectEqual(upgraded, 116)
  }
}
