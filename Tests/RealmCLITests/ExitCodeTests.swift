import RealmFormat
import RealmJSON
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

  private struct LockedElsewhere: ExitCodeMapping {
    var exitCode: ExitCode { .temporaryFailure }
  }

  private struct Unknown: Error {}

  @Test func asksOtherModulesErrorsThroughTheProtocol() {
    #expect(ExitCode.forError(LockedElsewhere()) == .temporaryFailure)
  }

  @Test func treatsUnknownErrorsAsInternal() {
    #expect(ExitCode.forError(Unknown()) == .software)
  }
}
