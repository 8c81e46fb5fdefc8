import Foundation
import HTTPServer
import RealmJSON
import RealmStorage
import RealmStudio
import RealmTestBytes
import RealmTestSupport
import Testing

/// A studio over copies of fixture files in a temporary directory, answering requests in
/// process (without the server and its guard: `StudioSecurityTests` tests those).
final class StudioHarness {
  let directory: URL
  let paths: [String]
  let studio: Studio

  /// Copies `fixtures` (paths below `Tests/Fixtures`, or absolute paths) as `name` each.
  init(_ fixtures: [(source: String, name: String)], key: EncryptionKey? = nil, readOnly: Bool = false) throws {
    directory = try Fixtures.temporaryDirectory()
    var paths: [String] = []
    for (source, name) in fixtures {
      let from = source.hasPrefix("/") ? URL(fileURLWithPath: source) : Fixtures.url(source)
      let to = directory.appendingPathComponent(name)
      try FileManager.default.copyItem(at: from, to: to)
      paths.append(to.path)
    }
    self.paths = paths
    studio = Studio(files: paths, key: key, options: Studio.Options(readOnly: readOnly, csrfToken: "csrf-token-of-the-tests"))
  }

  /// A harness over one fixture.
  convenience init(_ fixture: String, name: String = "test.realm", readOnly: Bool = false) throws {
    try self.init([(fixture, name)], readOnly: readOnly)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  var path: String { paths[0] }

  /// One answer: status, JSON (nil for other bodies), the body as text, and the response.
  struct Answer {
    var status: Int
    var json: JSONValue?
    var text: String
    var response: HTTPResponse
  }

  func request(_ method: String, _ target: String, body: [UInt8] = []) throws -> Answer {
    let response = studio.handle(try HTTPRequest(method: method, target: target, body: body))
    var bytes: [UInt8] = []
    switch response.body {
    case .bytes(let b): bytes = b
    case .stream(let produce): try produce { bytes += $0 }
    }
    let isJSON = response.header("Content-Type")?.hasPrefix("application/json") == true
    return Answer(
      status: response.status, json: isJSON ? try JSONParser.parse(bytes) : nil, text: String(decoding: bytes, as: UTF8.self),
      response: response)
  }

  func get(_ target: String) throws -> Answer { try request("GET", target) }

  func post(_ target: String, json text: String) throws -> Answer { try request("POST", target, body: Array(text.utf8)) }

  /// The bytes of the file now.
  func bytes(_ index: Int = 0) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: paths[index]))) }

  /// `/api/files/0/classes/C/...` with the class name escaped.
  static func classPath(_ className: String, _ rest: String, file: Int = 0) -> String {
    "/api/files/\(file)/classes/\(className.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? className)/\(rest)"
  }
}

/// Reading JSON answers in tests.
extension JSONValue {
  var string: String? { if case .string(let s) = self { return s } else { return nil } }
  var int: Int64? { if case .int(let i) = self { return i } else { return nil } }
  var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
  var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
  var members: [JSONMember]? { if case .object(let m) = self { return m } else { return nil } }
}

/// Realm's dump of a file, as JSON lines.
enum RealmAnswers {
  /// The lines of the oracle's dump of `path`.
  static func dump(_ path: String) throws -> [JSONValue] {
    try TestFiles.lines(Array(try RealmOracle.core14.dump(path).utf8)).map { try JSONParser.parse(Array($0)) }
  }

  /// The keys of class `className` in Realm's dump, in order.
  static func keys(_ lines: [JSONValue], of className: String) -> [Int64] {
    lines.filter { $0["$class"]?.string == className }.compactMap { $0["$key"]?.int }
  }

  /// The line of object `key` of `className`.
  static func line(_ lines: [JSONValue], _ className: String, _ key: Int64) -> JSONValue? {
    lines.first { $0["$class"]?.string == className && $0["$key"]?.int == key }
  }
}
