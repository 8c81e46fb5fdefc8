import Foundation
import RealmTestBytes
import Testing

/// Realm Core itself as a command (`shared/tools/realm-oracle`), for tests that check what
/// realmctl writes against Realm's own answers: `verify` (Realm's `Group::verify()`), `dump`,
/// `schema`, `open` with a schema, `query`.
///
/// The oracle is never part of the project: tests that run it are declared with ``enabled`` (or
/// ``enabled(_:)`` for an older Core) and report themselves skipped when `shared/` is absent.
///
/// ```swift
/// @Test(RealmOracle.enabled(.core13))
/// func format23FilesOpenInCore13() throws {
///   let result = try RealmOracle.core13.run(["verify", path])
///   #expect(result.status == 0, "\(result.output)")
/// }
/// ```
public struct RealmOracle: Sendable {
  /// Which Realm Core the oracle is linked against.
  public enum Core: String, Sendable, CaseIterable {
    /// Realm Core 14.14: opens format 24 as it is, formats 10-23 by upgrading a copy.
    case core14 = "bin"
    /// Realm Core 13.26: opens format 23 as it is (apps on Realm Java, Realm JS 11-12.5, ...).
    case core13 = "core13"
    /// Realm Core 12.13: opens format 22 as it is.
    case core12 = "core12"
  }

  /// The executable, nil when `shared/` (or this Core's build) is absent.
  public let executable: URL?
  /// The Realm Core it runs.
  public let core: Core

  /// The oracle linked against `core`.
  public init(_ core: Core) {
    self.core = core
    let url = SharedFixtures.url("tools/realm-oracle/\(core.rawValue)/oracle")
    executable = url.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }
  }

  /// Realm Core 14.14.
  public static let core14 = RealmOracle(.core14)
  /// Realm Core 13.26.
  public static let core13 = RealmOracle(.core13)
  /// Realm Core 12.13.
  public static let core12 = RealmOracle(.core12)

  /// The oracle whose Realm Core opens the file at `path` as it is, the way an app on that
  /// Core does: Realm Core 13 for format 23 and Realm Core 12 for format 22. (Realm Core 14
  /// reads those by upgrading a temporary copy at every run: its answers are about its own
  /// upgrade of the file, and each run pays for the upgrade.) Realm Core 14 for every other
  /// format, for an encrypted file (its header is encrypted too) and when the older Core is
  /// absent here.
  public static func openingAsIs(_ path: String, encrypted: Bool = false) -> RealmOracle {
    guard !encrypted, let format = TestFiles.fileFormat(path), let own = ownCore(ofFormat: format), own.isAvailable
    else { return .core14 }
    return own
  }

  /// The Realm Core whose own format is `format`: the one that writes it and opens it as it
  /// is, as apps on its SDKs do (Realm Core 12 for format 22, 13 for 23, 14 for 24); nil for
  /// the other formats, whose Cores are not among the oracles.
  public static func ownCore(ofFormat format: Int) -> RealmOracle? {
    switch format {
    case 22: return .core12
    case 23: return .core13
    case 24: return .core14
    default: return nil
    }
  }

  /// True when this oracle can be run here.
  public var isAvailable: Bool { executable != nil }

  /// Why oracle tests are skipped when the oracle is absent.
  public static let absentNote: Comment =
    "../shared/tools/realm-oracle is not present (Realm Core is never part of the project): skipped"

  /// The trait for tests that run Realm Core 14's oracle.
  public static var enabled: ConditionTrait { enabled(.core14) }

  /// The trait for tests that run the oracle of `core`.
  public static func enabled(_ core: Core) -> ConditionTrait {
    .enabled(if: RealmOracle(core).isAvailable, absentNote)
  }

  /// What one run of the oracle printed.
  public struct Result: Sendable {
    /// The exit status (0: `ok`).
    public var status: Int32
    /// Standard output.
    public var output: String
    /// Standard error.
    public var errorOutput: String
  }

  /// Runs the oracle with `arguments` and waits for it.
  ///
  /// `verify`, `dump`, `schema` and `query` open the file through Realm's `DB`, which creates
  /// `FILE.lock` beside it: they run on a copy in a temporary folder, so committed fixtures
  /// and `../shared` are never written to. They only read, so what Realm printed for the same
  /// command on the same bytes earlier in this process is given again (``AnswerCache``).
  public func run(_ arguments: [String]) throws -> Result {
    guard let executable else { throw OracleError.absent }
    guard let command = arguments.first, ["verify", "dump", "schema", "query"].contains(command), arguments.count > 1,
      FileManager.default.fileExists(atPath: arguments[1])
    else { return try Self.execute(executable, arguments) }
    let bytes = try TestFiles.bytes(arguments[1])
    let file = FileIdentity(bytes: bytes, core: core)
    let request = [command] + arguments.dropFirst(2)
    if let known = AnswerCache.shared.results([request], on: file)[0] { return known }
    let result = try Self.withCopy(of: arguments[1], bytes: bytes) { copy in
      try Self.execute(executable, [command, copy] + arguments.dropFirst(2))
    }
    AnswerCache.shared.remember([(request, result)], on: file)
    return result
  }

  /// Runs `body` with the path of a copy of `bytes`, the file at `path`, in a temporary folder
  /// of its own (removed afterwards), under the same name.
  static func withCopy<T>(of path: String, bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
    let fm = FileManager.default
    let dir = fm.temporaryDirectory.appendingPathComponent("realmctl-oracle-\(UUID().uuidString)")
    try fm.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? fm.removeItem(at: dir) }
    let copy = dir.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
    try TestFiles.write(bytes, to: copy)
    return try body(copy)
  }

  /// `verify FILE`: nil when Realm's `Group::verify()` passes, else Realm's message.
  public func verifyFailure(_ path: String, key: String? = nil) throws -> String? {
    let result = try run(["verify", path] + keyArguments(key))
    return result.status == 0 ? nil : result.output + result.errorOutput
  }

  /// `query FILE --class C --where Q`: the object keys Realm returns, in its result order;
  /// nil when Realm rejects the query.
  public func queryKeys(_ path: String, className: String, where query: String, key: String? = nil) throws -> [Int64]? {
    let result = try run(["query", path, "--class", className, "--where", query] + keyArguments(key))
    guard result.status == 0 else { return nil }
    return result.output.split(separator: "\n").compactMap { Int64($0) }
  }

  /// `dump FILE`: Realm's dump as JSON Lines.
  public func dump(_ path: String, key: String? = nil) throws -> String {
    let result = try run(["dump", path] + keyArguments(key))
    guard result.status == 0 else { throw OracleError.failed(result.output + result.errorOutput) }
    return result.output
  }

  /// `schema FILE`: Realm's schema JSON.
  public func schema(_ path: String, key: String? = nil) throws -> String {
    let result = try run(["schema", path] + keyArguments(key))
    guard result.status == 0 else { throw OracleError.failed(result.output + result.errorOutput) }
    return result.output
  }

  /// `open FILE --schema S --version N`: `ok`, or Realm's message ("Migration is required ...").
  public func open(_ path: String, schema: String, version: Int64, key: String? = nil) throws -> String {
    let result = try run(["open", path, "--schema", schema, "--version", String(version)] + keyArguments(key))
    return (result.output + result.errorOutput).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private func keyArguments(_ key: String?) -> [String] { key.map { ["--key", $0] } ?? [] }

  /// Why an oracle run could not give an answer.
  public enum OracleError: Error, CustomStringConvertible {
    /// The oracle is not present here.
    case absent
    /// The oracle refused (its own message).
    case failed(String)

    public var description: String {
      switch self {
      case .absent: return "the Realm oracle is not present"
      case .failed(let message): return "the Realm oracle failed: \(message)"
      }
    }
  }
}

extension RealmOracle {
  /// Runs `executable` with `arguments` and collects both outputs (``ProgramRun``).
  static func execute(_ executable: URL, _ arguments: [String]) throws -> Result {
    let run = try ProgramRun.run([executable.path] + arguments)
    return Result(
      status: run.status, output: String(decoding: run.output, as: UTF8.self),
      errorOutput: String(decoding: run.errorOutput, as: UTF8.self))
  }
}
