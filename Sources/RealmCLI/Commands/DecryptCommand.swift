import RealmStorage
import RealmRewrite

/// `realmctl decrypt FILE [--output NEW] [--key-file K]`: removes the encryption of a realm.
public struct DecryptCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "decrypt",
      abstract: "Decrypt an encrypted Realm file, giving a file that opens without a key.",
      discussion: """
        Decrypts the file with its 64-byte key (from --key-file, --key or the environment \
        variable REALMCTL_KEY) page by page: the result holds exactly the same realm, \
        readable by any Realm app or tool without a key. Every page is checked (its HMAC) \
        before anything is written. The file is replaced atomically; with --output the \
        plaintext goes to a new file and the encrypted original is left as it is.

        Examples:
          realmctl decrypt app.realm --key-file app.key --output plain.realm
          REALMCTL_KEY=$(cat app.key) realmctl decrypt app.realm
        """,
      arguments: KeyRewriteFiles.arguments(file: "The encrypted Realm file.", result: "the decrypted file")
        + KeyOptions.arguments())
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let (file, output) = try KeyRewriteFiles.paths(invocation)
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    guard try RealmEncryption.looksEncrypted(path: file) else {
      throw RealmCtlError(.invalidInput, path: file, "'\(file)' is not encrypted: there is nothing to decrypt")
    }
    guard let key else {
      throw StorageError.file(.encrypted, file, "is encrypted: give its key")
    }
    let result = try KeyRewrite.rewrite(
      path: file, key: key, newKey: nil, outputPath: output,
      fileFormat: try FileFormatOption.format(invocation, command: spec.name))
    let destination = output.map { " into \($0)" } ?? ""
    try context.standardOutput.writeLine(
      "Decrypted \(file)\(destination): \(result.sizeBefore) -> \(result.sizeAfter) bytes"
        + FileFormatOption.sizeSuffix(from: result.fromFormat, to: result.toFormat))
    return .success
  }
}
