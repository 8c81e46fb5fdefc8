import RealmModel

/// The status `realmctl` exits with, following sysexits(3) (style guide §2.5).
///
/// The table is documented in `docs/exit-codes.md` and `docs/CLI.md`; a test keeps them in
/// sync with ``allCases``.
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
  /// The command succeeded, or help or the version was printed.
  case success = 0
  /// The command ran but the answer is "no" (a check found problems, some files failed).
  case failure = 1
  /// Bad command line (`EX_USAGE`).
  case usage = 64
  /// Corrupt or unsupported Realm file, invalid plan, refused migration (`EX_DATAERR`).
  case dataError = 65
  /// An input file is missing or unreadable (`EX_NOINPUT`).
  case noInput = 66
  /// An internal invariant failed and was caught as an error: a bug (`EX_SOFTWARE`).
  case software = 70
  /// The output or a temporary file cannot be created (`EX_CANTCREAT`).
  case cannotCreate = 73
  /// `read`, `write`, `fsync` or `mmap` failed (`EX_IOERR`).
  case ioError = 74
  /// The file is locked by another process; retry later (`EX_TEMPFAIL`).
  case temporaryFailure = 75
  /// Permission denied (`EX_NOPERM`).
  case noPermission = 77

  /// The sysexits name, as in the documentation table.
  public var name: String {
    switch self {
    case .success: "success"
    case .failure: "failure"
    case .usage: "EX_USAGE"
    case .dataError: "EX_DATAERR"
    case .noInput: "EX_NOINPUT"
    case .software: "EX_SOFTWARE"
    case .cannotCreate: "EX_CANTCREAT"
    case .ioError: "EX_IOERR"
    case .temporaryFailure: "EX_TEMPFAIL"
    case .noPermission: "EX_NOPERM"
    }
  }

  /// When the code is used, one line for the documentation table.
  public var meaning: String {
    switch self {
    case .success: "The command succeeded, or help or the version was printed"
    case .failure:
      "The command ran but the answer is \"no\": `open --check` found problems, some files of `migrate` failed, or `diff` found differences or a needed migration"
    case .usage: "Bad command line: unknown option, missing or invalid argument, a key that is not 64 bytes or 128 hexadecimal digits"
    case .dataError:
      "Corrupt or unsupported Realm file; an encrypted file without its key, a key that does not match, a key for a file that is not encrypted; unknown class; invalid plan or data file; migration refused"
    case .noInput: "An input file is missing or unreadable"
    case .software: "Internal error (a bug, please report it)"
    case .cannotCreate: "The output file or a temporary file cannot be created"
    case .ioError: "A read, write, fsync or mmap failed"
    case .temporaryFailure:
      "The Realm file is open in another process (its `.lock` is held); retry later"
    case .noPermission: "Permission denied"
    }
  }
}

extension ExitCode {
  /// The exit code for an error that ended a command: the one place errors become codes.
  ///
  /// The command layer's own errors are switched on here; every public error type of the
  /// libraries says its `ErrorCategory` (`CategorizedError`), and each category has one code
  /// (docs/exit-codes.md). So each error reaches a deliberate exit code without this layer
  /// importing the module that threw it (`ExitCodeTests` throws every one through the command
  /// layer). Anything else is a bug (70).
  public static func forError(_ error: any Error) -> ExitCode {
    switch error {
    case is UsageError:
      return .usage
    case let error as RealmCtlError:
      return forCode(error.code)
    // A shell statement that failed inside a transaction: its own error decides.
    case let error as ShellTransactionRolledBack:
      return forError(error.underlying)
    case let error as any CategorizedError:
      return forCategory(error.category)
    default:
      return .software
    }
  }

  /// The code of each category of library errors.
  static func forCategory(_ category: ErrorCategory) -> ExitCode {
    switch category {
    // A damaged or unsupported file; a filter, expression, plan or data file that does not
    // compile or fails on an object; an export the format refuses: the input is refused.
    case .invalidData: .dataError
    // A key that is not 64 bytes (from a key file): the command line is wrong.
    case .invalidArgument: .usage
    case .missingInput: .noInput
    case .permissionDenied: .noPermission
    case .cannotCreateOutput: .cannotCreate
    case .ioFailure: .ioError
    case .busy: .temporaryFailure
    // Cancelled by the user (Ctrl-C in the shell): the command did not complete.
    case .cancelled: .failure
    // A misused API, or an internal signal a caller must catch: reaching the command layer is
    // a bug.
    case .internalError: .software
    }
  }

  static func forCode(_ code: RealmCtlError.Code) -> ExitCode {
    switch code {
    case .internalError: .software
    case .fileNotFound, .unreadable: .noInput
    case .permissionDenied: .noPermission
    case .cannotCreateOutput: .cannotCreate
    case .ioFailure: .ioError
    case .locked: .temporaryFailure
    case .invalidInput: .dataError
    // The reader went away (`realmctl dump | head`): not a failure of ours (see RealmCtl.run).
    case .brokenPipe: .success
    case .outputFailed: .ioError
    }
  }
}
