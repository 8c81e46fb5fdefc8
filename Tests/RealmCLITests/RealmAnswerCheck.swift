import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport

/// Compares `realmctl schema --format json` and `dump --format jsonl` of a file with Realm's
/// own answers for it, by meaning.
///
/// Realm answers for old files after upgrading a copy, so the `fileFormat` of its schema is
/// the upgraded file's (22 or 24); realmctl reports the file as it is, so that member is
/// compared with the file's own header instead.
enum RealmAnswerCheck {
  /// The differences (empty when realmctl gives Realm's answer), or the command's error.
  ///
  /// - Parameters:
  ///   - key: key options for an encrypted file, whose header cannot be read from its bytes:
  ///     then `format` gives the format it holds.
  static func problems(realm: String, schema: URL, dump: URL, key: [String] = [], format: Int? = nil) -> [String] {
    let schemaRun = CommandRun(["schema", realm, "--format", "json"] + key)
    guard schemaRun.status == 0 else { return ["schema: exit \(schemaRun.status): \(schemaRun.errors)"] }
    let dumpRun = CommandRun(["dump", realm, "--format", "jsonl"] + key)
    guard dumpRun.status == 0 else { return ["dump: exit \(dumpRun.status): \(dumpRun.errors)"] }
    do {
      let schemaBytes = [UInt8](try Data(contentsOf: schema))
      var expected = try JSONParser.parse(schemaBytes)
      let actual = try JSONParser.parse(schemaRun.output)
      var problems: [String] = []
      let format = format ?? headerFormat(realm)
      if actual["fileFormat"] != .int(Int64(format)) {
        problems.append("fileFormat: the file's header says \(format), realmctl says \(String(describing: actual["fileFormat"]))")
      }
      expected = replacing("fileFormat", in: expected, with: .int(Int64(format)))
      problems += DumpComparison.compareSchemas(expected: expected, actual: actual).map { "schema: " + $0 }
      problems += DumpComparison.compareDumps(
        expected: [UInt8](try Data(contentsOf: dump)), actual: dumpRun.output, schema: schemaBytes
      ).prefix(10).map { "dump: " + $0 }
      return problems
    } catch {
      return ["answers cannot be read: \(error)"]
    }
  }

  /// The file format of the live snapshot, from the header (-1 when it is not a Realm file's).
  static func headerFormat(_ path: String) -> Int { TestFiles.fileFormat(path) ?? -1 }

  static func replacing(_ key: String, in object: JSONValue, with value: JSONValue) -> JSONValue {
    guard case .object(let members) = object else { return object }
    return .object(members.map { $0.key == key ? JSONMember(key, value) : $0 })
  }

  /// The subdirectories of `url`, sorted.
  static func directories(_ url: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.sorted().map { url.appendingPathComponent($0) }.filter {
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
  }
}
