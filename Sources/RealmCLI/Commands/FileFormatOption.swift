import RealmModel

/// `--file-format N`: the file format a writing command writes (a `WritableFileFormat`). Without
/// it a command keeps the format of the file it rewrites (`WritableFileFormat.rewriting(_:)`),
/// and `create` writes `WritableFileFormat.current`.
enum FileFormatOption {
  /// The formats that can be written, for help and completion.
  static let values = WritableFileFormat.allCases.map { String($0.rawValue) }

  /// The option, for a command's declaration; `default` describes what happens without it.
  static func argument(default defaultBehaviour: String) -> ArgumentSpec {
    .option(
      "file-format", valueName: "n", type: .integer(minimum: nil), completion: .values(values),
      help: "The file format to write: \(formats). \(defaultBehaviour)")
  }

  /// `20 (Realm Core 10), 22 (Core 11-12), 23 (Core 13) or 24 (Core 14 and 20)`.
  private static var formats: String {
    let named = WritableFileFormat.allCases.enumerated().map { i, format in
      "\(format) (\(i == 0 ? "Realm Core" : "Core") \(format.realmCoreVersions))"
    }
    return named.dropLast().joined(separator: ", ") + " or " + named.last!
  }

  /// The format given to `command`, nil when the option is absent.
  ///
  /// - Throws: ``UsageError`` (64) for a number that is not a writable format, saying why.
  static func format(_ invocation: ParsedInvocation, command: String) throws -> WritableFileFormat? {
    guard let n = invocation.integer("file-format") else { return nil }
    if let format = WritableFileFormat(rawValue: n) { return format }
    let reason: String
    switch n {
    case 21:
      reason = "format 21 existed only in Realm Core 11's betas; write 22, which every Core 11 and 12 opens"
    case ..<20:
      reason = "formats below 20 (Realm Core 6 and older) cannot be written; the oldest writable format is 20"
    default:
      reason = "the newest format is \(WritableFileFormat.current)"
    }
    throw UsageError(
      .invalidValue, "invalid value '\(n)' for '--file-format <n>': \(reason) (choose from \(values.joined(separator: ", ")))",
      command: command)
  }

  /// How a write changed the file format, for reports: "file format 23 (kept)" for a kept
  /// format below 24, "file format 24 -> 23" for a change, nil for a format-24 file that stays
  /// 24 (or a file never written).
  static func change(from: Int, to: Int) -> String? {
    if from == 0 { return nil }
    if from == to { return to == WritableFileFormat.current.rawValue ? nil : "file format \(to) (kept)" }
    return "file format \(from) -> \(to)"
  }

  /// ``change(from:to:)`` after a report line that ends with sizes: " (file format 9 -> 24)"
  /// for a change, ", file format 23 (kept)" for a kept format below 24.
  static func sizeSuffix(from: Int, to: Int) -> String {
    guard let phrase = change(from: from, to: to) else { return "" }
    return from == to ? ", \(phrase)" : " (\(phrase))"
  }

  /// Warns when a file of a format realmctl does not write (2-11) was written as a newer
  /// one: the app that wrote it cannot open it any more.
  static func warnIfOldSDKsLeft(from: Int, to: Int, path: String, context: CommandContext) throws {
    guard from > 0 && from < 20 && to != from else { return }
    try context.warn(
      "'\(path)' was file format \(from) and is now file format \(to): apps on the Realm SDK that wrote it "
        + "(Realm Core 6 and older) can no longer open it; formats below 20 cannot be written")
  }
}
