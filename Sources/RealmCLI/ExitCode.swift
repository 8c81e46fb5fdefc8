import RealmFormat
import RealmJSON
import RealmMigration
import RealmStorage
import RealmExport
import RealmQuery
import RealmCrypto

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
  /// Every public error type of the libraries and of the command layer is switched on here,
  /// by its `code` where it has one, so each reaches a deliberate exit code (a new error type
  /// must be added here: `ExitCodeTests` throws every one through the command layer).
  /// Anything else is a bug (70).
  public static func forError(_ error: any Error) -> ExitCode {
    switch error {
    case is UsageError:
      return .usage
    case let error as RealmCtlError:
      return forCode(error.code)
    case let error as FormatError:
      return forCode(error.code)
    case let error as StorageError:
      return forCode(error.code)
    case let error as InputError:
      return forCode(error.code)
    case let error as MigrationError:
      return forCode(error.code)
    // A shell statement that failed inside a transaction: its own error decides.
    case let error as ShellTransactionRolledBack:
      return forError(error.underlying)
    // A filter or an expression given on the command line or in a file that does not compile,
    // or fails on an object: the input is refused.
    case is QueryError, is QueryEvaluationError, is ExpressionError, is EvaluationError:
      return .dataError
    // Data files (JSON, JSON Lines, schema) that are not valid; an export the format refuses.
    case is JSONParseError, is CanonicalDecodingError, is DumpOutputError:
      return .dataError
    // A key that is not 64 bytes (from a key file) or a failure of the ciphers on a page.
    case is EncryptionKey.FormatProblem:
      return .usage
    case is CryptoError:
      return .dataError
    // Cancelled by the user (Ctrl-C in the shell): the command did not complete.
    case is ProgressCancelled:
      return .failure
    // Internal signals that a caller must catch: reaching the command layer is a bug.
    case is KernelFallback:
      return .software
    default:
      return .software
    }
  }

  static func forCode(_ code: InputError.Code) -> ExitCode {
    switch code {
    case .fileNotFound, .unreadable: .noInput
    case .permissionDenied: .noPermission
    case .cannotCreateOutput: .cannotCreate
    case .invalidInput: .dataError
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

  static func forCode(_ code: FormatError.Code) -> ExitCode {
    switch code {
    case .truncated, .notRealmFile, .encrypted, .unsupportedVersion, .corrupt, .limitExceeded:
      .dataError
    }
  }

  static func forCode(_ code: StorageError.Code) -> ExitCode {
    switch code {
    case .fileNotFound: .noInput
    case .permissionDenied: .noPermission
    case .notARealmFile, .encrypted, .wrongKey, .notEncrypted, .unsupportedFormat, .corrupt: .dataError
    case .locked: .temporaryFailure
    case .io: .ioError
    case .alreadyExists: .cannotCreate
    // A valid file this version cannot write (format, history type): the data is refused.
    case .unsupported: .dataError
    case .misuse: .software
    }
  }

  static func forCode(_ code: MigrationError.Code) -> ExitCode {
    switch code {
    case .invalidPlan, .versionLower, .migrationRequired, .dataLoss, .constraintViolated,
      .evaluationFailed, .execFailed, .unsupported, .invalidData:
      .dataError
    }
  }
}
