import Foundation
import RealmCrypto
import RealmExport
import RealmFormat
import RealmJSON
import RealmMigration
import RealmModel
import RealmQuery
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI
import RealmEdit
import RealmDiff
import RealmRewrite

@Suite struct ExitCodeTests {
  @Test func valuesFollowSysexits() {
    let table = Dictionary(uniqueKeysWithValues: ExitCode.allCases.map { ($0.rawValue, $0.name) })
    #expect(
      table == [
        0: "success", 1: "failure", 64: "EX_USAGE", 65: "EX_DATAERR", 66: "EX_NOINPUT",
        70: "EX_SOFTWARE", 73: "EX_CANTCREAT", 74: "EX_IOERR", 75: "EX_TEMPFAIL", 77: "EX_NOPERM",
      ])
  }

  @Test func mapsCommandLayerErrors() {
    let expected: [RealmCtlError.Code: ExitCode] = [
      .internalError: .software, .fileNotFound: .noInput,
      .unreadable: .noInput, .permissionDenied: .noPermission, .cannotCreateOutput: .cannotCreate,
      .ioFailure: .ioError, .locked: .temporaryFailure, .invalidInput: .dataError,
      .brokenPipe: .success, .outputFailed: .ioError,
    ]
    for code in RealmCtlError.Code.allCases {
      expectEqual(ExitCode.forError(RealmCtlError(code, "x")), expected[code], "\(code)")
    }
  }

  @Test func mapsUsageFormatAndJSONErrors() {
    expectEqual(ExitCode.forError(UsageError(.unknownOption, "x")), .usage)
    for code: FormatError.Code in [
      .truncated, .notRealmFile, .encrypted, .unsupportedVersion, .corrupt, .limitExceeded,
    ] {
      expectEqual(ExitCode.forError(FormatError(code)), .dataError)
    }
    do {
      _ = try JSONParser.parse("{")
      Issue.record("'{' parsed")
    } catch {
      expectEqual(ExitCode.forError(error), .dataError)
    }
  }

  private struct Unknown: Error {}

  /// The error `body` throws.
  private static func thrown(_ body: () throws -> Void) -> any Error {
    do {
      try body()
    } catch {
      return error
    }
    Issue.record("nothing thrown")
    return Unknown()
  }

  /// One value of every public error type of the libraries and the command layer, with the
  /// exit code it must reach.
  private static let everyErrorType: [(any Error, ExitCode)] = [
    (UsageError(.unknownOption, "x"), .usage),
    (RealmCtlError(.locked, "x"), .temporaryFailure),
    (FormatError(.corrupt), .dataError),
    (StorageError(.locked, "x"), .temporaryFailure),
    (InputError(.fileNotFound, "x"), .noInput),
    (InputError(.invalidInput, "x"), .dataError),
    (MigrationError(.invalidPlan, "x"), .dataError),
    (RewriteError(.unsupported, "x"), .dataError),
    (QueryError(column: 1, message: "x"), .dataError),
    (QueryEvaluationError.unsupported("x"), .dataError),
    (ExpressionError(column: 1, message: "x"), .dataError),
    (EvaluationError(column: 1, message: "x"), .dataError),
    (CanonicalDecodingError(line: 1, path: "$", message: "x"), .dataError),
    (DumpOutputError("x"), .dataError),
    (CryptoError(description: "x"), .dataError),
    (ProgressCancelled(), .failure),
    (KernelFallback(), .software),
    (FormatObstacle(className: "C", property: "p", reason: "is a Set of Mixed", features: []), .dataError),
    (thrown { _ = try JSONParser.parse("{") }, .dataError),
    (thrown { _ = try CSVParser.records(Array("\"open".utf8)) }, .dataError),
    (RealmDiff.Failure.unknownClass("Persn", suggestion: "Person"), .dataError),
    (RealmDiff.Failure.badQuery(file: "a.realm", message: "x"), .usage),
    (thrown { _ = try EncryptionKey(bytes: [1, 2, 3]) }, .usage),
  ]

  @Test func everyErrorTypeReachesADeliberateExitCode() throws {
    for (error, expected) in Self.everyErrorType {
      expectEqual(ExitCode.forError(error), expected, "\(type(of: error))")
      // Through the command layer: its message is the error's own, not "Internal error".
      if expected != .software {
        #expect(!RealmCtl.errorMessage(for: error).hasPrefix("Internal error"), "\(type(of: error))")
      }
    }
  }

  /// Each category of library errors has the code docs/exit-codes.md gives it.
  @Test func mapsEveryErrorCategory() {
    let expected: [ErrorCategory: ExitCode] = [
      .invalidData: .dataError, .invalidArgument: .usage, .missingInput: .noInput,
      .permissionDenied: .noPermission, .cannotCreateOutput: .cannotCreate, .ioFailure: .ioError,
      .busy: .temporaryFailure, .cancelled: .failure, .internalError: .software,
    ]
    for category in ErrorCategory.allCases {
      expectEqual(ExitCode.forCategory(category), expected[category], "\(category)")
    }
  }

  /// A new public error type in a library must be added to ``everyErrorType`` (and adopt
  /// `CategorizedError`, or it would end as exit 70): every one declared in Sources (adopting
  /// `Error` or `CodedError`) is listed.
  @Test func everyPublicErrorTypeOfTheLibrariesIsListed() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let libraries = [
      "RealmModel", "RealmFormat", "RealmCrypto", "RealmStorage", "RealmJSON", "RealmQuery", "RealmExport",
      "RealmRewrite", "RealmMigration", "RealmEdit", "RealmDiff", "RealmCLI",
    ]
    let declaration = try NSRegularExpression(pattern: #"^\s*public (?:struct|enum|final class|class) (\w+)\b[^{]*\b(?:Coded)?Error\b"#, options: .anchorsMatchLines)
    var declared: Set<String> = []
    for library in libraries {
      let root = sources.appendingPathComponent(library)
      let walk = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
      for case let file as URL in walk where file.pathExtension == "swift" {
        let text = try String(contentsOf: file, encoding: .utf8)
        for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
          declared.insert(String(text[Range(match.range(at: 1), in: text)!]))
        }
      }
    }
    // A floor that keeps the scan honest (ExpressionError is RealmQuery's QueryError, not a type of its own).
    #expect(declared.count >= 19)
    let listed = Set(Self.everyErrorType.map { String(describing: type(of: $0.0)) })
    #expect(declared.subtracting(listed).isEmpty, "not listed: \(declared.subtracting(listed).sorted())")
  }

  @Test func treatsUnknownErrorsAsInternal() {
    expectEqual(ExitCode.forError(Unknown()), .software)
  }
}
