import RealmStorage

/// The files of `encrypt` and `decrypt`, which rewrite every page of a realm with another key
/// (or none): `<file>`, replaced in place, or a new `--output` file.
enum KeyRewriteFiles {
  /// `<file>`, `--output` and `--file-format`; `file` describes the input, `result` the file
  /// written (`the encrypted file`).
  static func arguments(file: String, result: String) -> [ArgumentSpec] {
    [
      .positional("file", completion: .realmFile, help: file),
      .option("output", valueName: "path", help: "Write \(result) here (it must not exist) instead of replacing <file>."),
      FileFormatOption.argument(default: FileFormatText.keptDefault()),
    ]
  }

  /// The readable `<file>` and the `--output` path, which must not exist.
  static func paths(_ invocation: ParsedInvocation) throws -> (file: String, output: String?) {
    let file = invocation.string("file") ?? ""
    let output = invocation.string("output")
    try InputFiles.requireReadableFile(file)
    if let output { try InputFiles.requireAbsent(output) }
    return (file, output)
  }
}
