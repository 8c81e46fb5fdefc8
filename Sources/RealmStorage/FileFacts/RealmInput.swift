import RealmFormat
import RealmModel

/// Opening the Realm file of an inspection command (`open`, `schema`, `dump`) and looking up
/// the class a command names.
public enum RealmInput {
  /// Opens `path` read-only: a missing or unreadable path fails first with the command layer's
  /// own message (66, 77), then the file is mapped and its group validated.
  ///
  /// By default the command is one reading of the file: everything it decodes is charged to
  /// one `ReadBudget` (`Limits.oneReading`), so its memory and output stay bounded by the
  /// file. A session that reads the file again and again (`shell`) passes `Limits.default`:
  /// each pass over a table has a budget of its own.
  ///
  /// - Throws: ``InputError`` for the path checks, ``StorageError`` for the file itself
  ///   (not a Realm file, encrypted, unsupported format, corrupt: 65).
  public static func open(_ path: String, key: EncryptionKey? = nil, limits: Limits = .oneReading) throws -> RealmFile {
    try InputFiles.requireReadableFile(path)
    return try RealmFile.open(path: path, key: key, limits: limits)
  }

  /// Opens `path` read-only for a session that reads the file again and again (`shell`): each
  /// pass over a table has a read budget of its own (`Limits.default`), unlike
  /// ``open(_:key:limits:)``'s one budget for the whole command.
  public static func openForSession(_ path: String, key: EncryptionKey? = nil) throws -> RealmFile {
    try open(path, key: key, limits: .default)
  }

  /// Runs a decoding step on an open file; a `FormatError` becomes a ``StorageError`` that
  /// names the file, as the errors of ``open(_:key:limits:)`` do.
  public static func reading<T>(_ file: RealmFile, _ body: () throws(FormatError) -> T) throws(StorageError) -> T {
    do {
      return try body()
    } catch {
      throw StorageError.from(error, path: file.path)
    }
  }

  /// Runs a read of the file at `path` that may also fail for other reasons (an object walk
  /// whose body writes output, a filter, a limit): a `FormatError` from the file becomes a
  /// ``StorageError`` that names it, so that a read of two files says which one is damaged;
  /// any other error passes through unchanged.
  public static func reading<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as FormatError {
      throw StorageError.from(error, path: path)
    }
  }

  /// The file's schema; a `FormatError` becomes a ``StorageError`` that names the file.
  public static func schema(of file: RealmFile) throws(StorageError) -> Schema {
    try reading(file) { () throws(FormatError) in try file.group.schema() }
  }

  /// The class called `name` in `schema`, or an error that suggests the closest name.
  ///
  /// - Throws: ``InputError`` `invalidInput` (exit 65):
  ///   `class 'Persn' not found in 'x.realm' (did you mean 'Person'?)`.
  public static func objectSchema(named name: String, in schema: Schema, path: String) throws(InputError) -> ObjectSchema {
    if let found = schema.objectSchema(named: name) { return found }
    throw unknownClass(name, among: schema.classes.map(\.name), path: path)
  }

  /// The error for a class name the file does not have.
  public static func unknownClass(_ name: String, among names: [String], path: String) -> InputError {
    var message = "class '\(name)' not found in '\(path)'"
    if let caseMatch = names.first(where: { $0.lowercased() == name.lowercased() }) {
      message += " (did you mean '\(caseMatch)'?)"
    } else if let close = Suggestion.closest(to: name, among: names, rule: .option) {
      message += " (did you mean '\(close)'?)"
    } else if names.isEmpty {
      message += " (the file has no classes)"
    }
    return InputError(.invalidInput, path: path, message)
  }
}
