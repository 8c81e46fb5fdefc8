import RealmCrypto
import RealmExport
import RealmFormat
import RealmJSON
import RealmMigration
import RealmQuery
import RealmStorage
import Testing

@testable import RealmCLI

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
      #expect(ExitCode.forError(RealmCtlError(code, "x")) == expected[code], "\(code)")
    }
  }

  @Test func mapsUsageFormatAndJSONErrors() {
    #expect(ExitCode.forError(UsageError(.unknownOption, "x")) == .usage)
    for code: FormatError.Code in [
      .truncated, .notRealmFile, .encrypted, .unsupportedVersion, .corrupt, .limitExceeded,
    ] {
      #expect(ExitCode.forError(FormatError(code)) == .dataError)
    }
    do {
      _ = try JSONParser.parse("{")
      Issue.record("'{' parsed")
    } catch {
      #expect(ExitCode.forError(error) == .dataError)
    }
  }

  private struct Unknown: Error {}

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
    (QueryError(column: 1, message: "x"), .dataError),
    (QueryEvaluationError.unsupported("x"), .dataError),
    (ExpressionError(column: 1, message: "x"), .dataError),
    (EvaluationError(column: 1, message: "x"), .dataError),
    (CanonicalDecodingError(line: 1, path: "$", message: "x"), .dataError),
    (DumpOutputError("x"), .dataError),
    (CryptoError(description: "x"), .dataError),
    (ProgressCancelled(), .failure),
    (KernelFallback(), .software),
  ]

  @Test func everyErrorTypeReachesADeliberateExitCode() throws {
    for (error, expected) in Self.everyErrorType {
      #expect(ExitCode.forError(error) == expected, "\(type(of: error))")
      // Through the command layer: its message is the error's own, not "Internal error".
      if expected != .software {
        #expect(!RealmCtl.errorMessage(for: error).hasPrefix("Internal error"), "\(type(of: error))")
      }
    }
    let keyProblem: any Error
    do {
      _ = try EncryptionKey(bytes: [1, 2, 3])
      Issue.record("a 3-byte key was accepted")
      return
    } catch {
      keyProblem = error
    }
    #expect(ExitCode.forError(keyProblem) == .usage)
  }

  @Test func treatsUnknownErrorsAsInternal() {
    #expect(ExitCode.forError(Unknown()) == .software)
  }
}
