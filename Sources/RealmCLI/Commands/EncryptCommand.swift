import RealmStorage
import RealmRewrite

/// `realmctl encrypt FILE [--output NEW] [--key-file K] [--new-key-file N]`: encrypts a realm,
/// or changes the key of an encrypted one.
public struct EncryptCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "encrypt",
      abstract: "Encrypt a Realm file with a 64-byte key, or change the key of an encrypted one.",
      discussion: """
        Encrypts the file as a Realm app does with an encryption key (AES-256 and \
        HMAC-SHA224 in 4 KiB pages, Realm Core's layout): the app, Realm Studio and \
        realmctl then open it with the same key. The data is copied page for page, so the \
        encrypted file holds exactly the same realm. The file is replaced atomically and \
        is never written in plaintext, not even in a temporary file; with --output the \
        result goes to a new file and the original is left as it is.

        The key comes from --key-file (64 raw bytes, or 128 hexadecimal digits), --key or \
        the environment variable REALMCTL_KEY. To change the key of a file that is already \
        encrypted, give its current key that way and the new one with --new-key-file, \
        --new-key or REALMCTL_NEW_KEY. Keys are never printed.

        Examples:
          realmctl encrypt app.realm --key-file app.key
          realmctl encrypt app.realm --key-file app.key --output app-encrypted.realm
          realmctl encrypt app.realm --key-file old.key --new-key-file new.key
        """,
      arguments: KeyRewriteFiles.arguments(file: "The Realm file to encrypt (or re-key).", result: "the encrypted file")
        + KeyOptions.arguments(purpose: "to encrypt with (for a file that is already encrypted: its current key)")
        + KeyOptions.arguments(new: true, purpose: "for a file that is already encrypted"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let (file, output) = try KeyRewriteFiles.paths(invocation)
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    let newKey = try KeyOptions.key(invocation, environment: context.environment, command: spec.name, new: true)
    let encrypted = try RealmEncryption.looksEncrypted(path: file)
    let source: EncryptionKey?
    let target: EncryptionKey
    if encrypted {
      guard let key else {
        throw UsageError(
          .missingArgument,
          "Missing the current key of the encrypted file: give it with '--key-file <path>' or in REALMCTL_KEY",
          command: spec.name)
      }
      guard let newKey else {
        throw RealmCtlError(
          .invalidInput, path: file,
          "'\(file)' is already encrypted; to change its key, give the current key with --key-file and the new one with --new-key-file")
      }
      (source, target) = (key, newKey)
    } else {
      if key != nil && newKey != nil {
        throw RealmCtlError(
          .invalidInput, path: file,
          "'\(file)' is not encrypted, so it has no current key: give only the key to encrypt it with")
      }
      guard let k = key ?? newKey else {
        throw UsageError(
          .missingArgument, "Missing the key: give it with '--key-file <path>' or in REALMCTL_KEY",
          command: spec.name)
      }
      (source, target) = (nil, k)
    }
    let result = try KeyRewrite.rewrite(
      path: file, key: source, newKey: target, outputPath: output,
      fileFormat: try FileFormatOption.format(invocation, command: spec.name))
    let what = source == nil ? "Encrypted" : "Changed the key of"
    let destination = output.map { " into \($0)" } ?? ""
    try context.standardOutput.writeLine(
      "\(what) \(file)\(destination): \(result.sizeBefore) -> \(result.sizeAfter) bytes"
        + FileFormatOption.sizeSuffix(from: result.fromFormat, to: result.toFormat))
    return .success
  }
}
