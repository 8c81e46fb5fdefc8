import RealmModel
import RealmStorage

/// The encryption-key options every command that opens or writes a Realm file takes:
/// `--key-file PATH`, `--key HEX`, and the environment variable `REALMCTL_KEY`
/// (`--new-key-file`, `--new-key` and `REALMCTL_NEW_KEY` for the new key of `encrypt`).
///
/// Keys are never echoed: messages name the option or variable and what is wrong with its
/// value (its length, a character that is not hexadecimal), never the value itself.
enum KeyOptions {
  /// The environment variable holding the key as 128 hexadecimal digits.
  static let environmentVariable = "REALMCTL_KEY"
  /// The environment variable holding the new key of `encrypt`.
  static let newKeyEnvironmentVariable = "REALMCTL_NEW_KEY"

  /// The two options, for a command's declaration (`new`: `--new-key-file`, `--new-key`).
  static func arguments(new: Bool = false, purpose: String = "of the Realm file") -> [ArgumentSpec] {
    let prefix = new ? "new-" : ""
    let variable = new ? newKeyEnvironmentVariable : environmentVariable
    return [
      .option(
        prefix + "key-file", valueName: "path",
        help: """
          The \(new ? "new " : "")64-byte encryption key \(purpose): a file holding the raw 64 \
          bytes or 128 hexadecimal digits (whitespace ignored). Without it, the key is \
          taken from the environment variable \(variable) (128 hexadecimal digits) when it is set.
          """),
      .option(
        prefix + "key", valueName: "hex", completion: .text,
        help: """
          The \(new ? "new " : "")key as 128 hexadecimal digits on the command line. Other \
          users can see it in the process list and it stays in the shell history: \
          prefer --\(prefix)key-file or \(variable).
          """),
    ]
  }

  /// The key given to `command` (nil when none), from `--key-file`, `--key` or the variable.
  ///
  /// - Throws: ``UsageError`` (64) for both options at once or a malformed key;
  ///   ``RealmCtlError`` (66, 77) for a key file that cannot be read.
  static func key(
    _ invocation: ParsedInvocation, environment: [String: String], command: String, new: Bool = false
  ) throws -> EncryptionKey? {
    let prefix = new ? "new-" : ""
    let variable = new ? newKeyEnvironmentVariable : environmentVariable
    let file = invocation.string(prefix + "key-file")
    let hex = invocation.string(prefix + "key")
    if file != nil && hex != nil {
      throw UsageError(
        .unexpectedArgument, "'--\(prefix)key-file' and '--\(prefix)key' cannot be used together",
        command: command)
    }
    if let file {
      try InputFiles.requireReadableFile(file)
      let contents = try InputFiles.contents(of: file)
      do {
        return try EncryptionKey(keyFile: contents)
      } catch {
        throw UsageError(.invalidValue, "The key file '\(file)' \(error.description)", command: command)
      }
    }
    if let hex {
      do {
        return try EncryptionKey(hex: Array(hex.utf8))
      } catch {
        throw UsageError(.invalidValue, "The value of '--\(prefix)key' \(error.description)", command: command)
      }
    }
    if let value = environment[variable], !value.isEmpty {
      do {
        return try EncryptionKey(hex: Array(value.utf8))
      } catch {
        throw UsageError(.invalidValue, "The environment variable \(variable) \(error.description)", command: command)
      }
    }
    return nil
  }
}
