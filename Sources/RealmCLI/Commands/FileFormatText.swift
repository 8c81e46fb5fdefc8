import RealmModel
import RealmStorage

/// What help texts say about the formats realmctl reads and writes and the SDK releases that
/// open them, generated from `WritableFileFormat`, the reader's formats and the SDK release
/// table, so help and the man page cannot drift from them (docs are checked against the same
/// tables by `FormatClaimTests`).
enum FileFormatText {
  /// `20, 22, 23 or 24`: every format realmctl writes.
  static func writable(_ conjunction: String = "or") -> String {
    list(WritableFileFormat.allCases.map(\.description), conjunction)
  }

  /// `a file of format 21 is written as 22, one of formats 2 to 11 as 24`: the formats that a
  /// rewrite without `--file-format` does not keep, and what they become.
  static var rewrittenFormats: String {
    var groups: [(formats: [Int], target: WritableFileFormat)] = []
    for format in FileFormatDescription.readableFormats.joined() {
      let target = WritableFileFormat.rewriting(format)
      guard target.rawValue != format else { continue }
      if let last = groups.indices.last, groups[last].target == target, groups[last].formats.last == format - 1 {
        groups[last].formats.append(format)
      } else {
        groups.append(([format], target))
      }
    }
    groups.sort { $0.formats.count < $1.formats.count }
    return groups.enumerated().map { i, group in
      let formats = group.formats.count == 1 ? "format \(group.formats[0])" : "formats \(group.formats[0]) to \(group.formats.last!)"
      return i == 0 ? "a file of \(formats) is written as \(group.target)" : "one of \(formats) as \(group.target)"
    }.joined(separator: ", ")
  }

  /// The default of `--file-format` on a command that rewrites files: `Default: the file's
  /// own format (20, 22, 23 or 24); a file of format 21 is written as 22, ...`.
  static func keptDefault(_ owner: String = "the file's") -> String {
    "Default: \(owner) own format (\(writable())); \(rewrittenFormats)."
  }

  /// The paragraph of `realmctl --help` on formats.
  static var overview: String {
    """
    Files of every format Realm SDKs have written are read: formats 2 to 9 (Realm Core \
    5 and older, 2014-2019), 10 and 11 (Realm Core 6) and 20 to 24 (Realm Core 10 to \
    14 and 20). A file realmctl rewrites keeps its format when realmctl writes it \
    (\(writable())); \(rewrittenFormats). New files are format \(WritableFileFormat.current), \
    the one current SDKs open. --file-format writes another, and 'convert' rewrites a file \
    in any of them, up or down.
    """
  }

  /// One line per writable format, newest first, naming the SDK releases that write it (and
  /// open it as is): `Format 24 (Realm Core 14 and 20): Realm Swift 10.49.0-10.54.6 and
  /// 20.0.0-20.0.6, ...`.
  static var writersByFormat: String {
    WritableFileFormat.allCases.reversed().map { format in
      let releases = SDKReleases.text(SDKReleases.joined(SDKReleases.openingAsIs(format: format.rawValue)))
      return "Format \(format) (\(format.realmCore)): \(releases)."
    }.joined(separator: "\n")
  }

  /// `Realm Swift 20.0.0-20.0.6, Realm Kotlin 3.0.0, ...`: the current releases without
  /// Device Sync, which refuse a synced realm.
  static var currentReleasesWithoutDeviceSync: String {
    let current = SDKReleases.openingAsIs(format: WritableFileFormat.current.rawValue)
    return SDKReleases.text(SDKReleases.joined(current.filter { !$0.deviceSync }))
  }

  /// `a, b, c or d`.
  private static func list(_ items: [String], _ conjunction: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
  }
}
