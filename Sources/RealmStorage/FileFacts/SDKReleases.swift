import RealmModel

/// Which releases of the Realm SDKs open a file of a given format, from the SDKs' own
/// changelogs (see docs/file-formats.md, "Which SDK opens which format").
///
/// A release opens a file of the format it writes as it is. It opens an older format by
/// upgrading the file (which older releases then cannot open), if its Realm Core still reads
/// that format: Realm Core 14 and 20 (format 24) upgrade formats 10 and newer, Realm Core 6 to
/// 13 (formats 10 to 23) formats 5 and newer ("Reads and automatically upgrade from fileformat
/// v5" / "v10" in Realm Core's changelog; `BackupHandler::accepted_versions_` in
/// `backup_restore.cpp`: `{24, 23, 22, 21, 20, 11, 10}` in 14.14 and 20.x, down to 5 in 10.x
/// to 13.x). No release opens a newer format than it writes (Realm Core 10.7.2 accepts 20 and
/// older, so Realm JS 10.4.1 cannot open what 10.4.0 wrote in format 21). A synced realm opens
/// only in releases with Device Sync (``SDKReleaseRange/deviceSync``).
public enum SDKReleases {
  /// The SDK releases that open files of `format` without upgrading them, in SDK order.
  public static func openingAsIs(format: Int) -> [SDKReleaseRange] {
    ranges.filter { $0.fileFormat == format }
  }

  /// The SDK releases that open files of `format` after upgrading them to their own newer
  /// format, in SDK order.
  public static func openingAfterUpgrade(format: Int) -> [SDKReleaseRange] {
    ranges.filter { $0.fileFormat > format && format >= oldestUpgraded(byReleasesWriting: $0.fileFormat) }
  }

  /// Which releases open a file of `format` kept with `history`, joined into spans: all that
  /// read the format for a local realm; for a synced realm (`syncClient`) those with Device
  /// Sync, the others listed as refusing it; none for a sync server's file (no SDK opens one).
  public static func openers(format: Int, history: HistoryType) -> SDKOpeners {
    let asIs = openingAsIs(format: format)
    let upgrading = openingAfterUpgrade(format: format)
    switch history {
    case .syncClient:
      return SDKOpeners(
        asIs: joined(asIs.filter(\.deviceSync)), afterUpgrade: joined(upgrading.filter(\.deviceSync)),
        withoutDeviceSync: joined((asIs + upgrading).filter { !$0.deviceSync }.sorted { order($0) < order($1) }))
    case .syncServer:
      return SDKOpeners(asIs: [], afterUpgrade: [], withoutDeviceSync: [])
    case .none, .outOfRealm, .inRealm:
      return SDKOpeners(asIs: joined(asIs), afterUpgrade: joined(upgrading), withoutDeviceSync: [])
    }
  }

  /// The range holding release `release` of `sdk` (a final release number such as `12.3.0`),
  /// nil when the table has none (betas, releases before the changelogs state a format, or
  /// after the changelogs end).
  public static func range(of sdk: RealmSDK, release: String) -> SDKReleaseRange? {
    guard let version = releaseNumbers(release) else { return nil }
    return ranges.first { range in
      guard range.sdk == sdk, let first = releaseNumbers(range.first), let last = releaseNumbers(range.last) else { return false }
      return !version.lexicographicallyPrecedes(first) && !last.lexicographicallyPrecedes(version)
    }
  }

  /// `[12, 3, 0]` for `12.3.0`; nil for anything but numbers and dots.
  static func releaseNumbers(_ release: String) -> [Int]? {
    let parts = release.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
    guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
    return parts.map { $0! }
  }

  /// The oldest format that releases writing `format` upgrade (their Realm Core's changelog).
  public static func oldestUpgraded(byReleasesWriting format: Int) -> Int {
    switch format {
    case 24...: 10
    case 10...23: 5
    default: 2
    }
  }

  /// Adjacent ranges of one SDK joined: `Realm JS 10.5.0-12.15.0` for the ranges of formats
  /// 22, 23 and 24. Two lines of one SDK that were released side by side (Realm Swift 10.x
  /// with Device Sync and 20.x without it) stay two spans: `Realm Swift 10.49.0-10.54.6 and
  /// 20.0.0-20.0.6`; one that follows the other (Realm Kotlin 2.3.0, then 3.0.0 without
  /// Device Sync) is joined.
  public static func joined(_ ranges: [SDKReleaseRange]) -> [SDKReleaseSpan] {
    var spans: [SDKReleaseSpan] = []
    var previous: SDKReleaseRange?
    for range in ranges {
      if let p = previous, let last = spans.indices.last, p.sdk == range.sdk, isAdjacent(p, range),
        p.deviceSync == range.deviceSync || p.lastDate < range.firstDate
      {
        spans[last].last = range.last
      } else {
        spans.append(range.span)
      }
      previous = range
    }
    return spans
  }

  /// `Realm Swift 10.8.0-10.34.1, Realm JS 10.0.0-10.3.0 and 10.4.1-10.4.2`: spans of one SDK
  /// named once, in their order.
  public static func text(_ spans: [SDKReleaseSpan]) -> String {
    var parts: [(RealmSDK, [String])] = []
    for span in spans {
      let versions = span.first == span.last ? span.first : "\(span.first)-\(span.last)"
      if let last = parts.indices.last, parts[last].0 == span.sdk {
        parts[last].1.append(versions)
      } else {
        parts.append((span.sdk, [versions]))
      }
    }
    return parts.map { "\($0.0.name) \($0.1.joined(separator: " and "))" }.joined(separator: ", ")
  }

  /// True when `b` follows `a` in the SDK's table with no range between them.
  private static func isAdjacent(_ a: SDKReleaseRange, _ b: SDKReleaseRange) -> Bool {
    guard let i = ranges.firstIndex(of: a), i + 1 < ranges.count else { return false }
    return ranges[i + 1] == b
  }

  /// The position of `range` in ``ranges``.
  private static func order(_ range: SDKReleaseRange) -> Int { ranges.firstIndex(of: range) ?? ranges.count }

  /// Every range, per SDK in release order, from the changelogs of the SDKs' repositories
  /// (final releases; formats before 20 only where the changelogs say).
  ///
  /// The changelogs were read from snapshots of the repositories that end between October 2024
  /// (Realm Kotlin) and October 2025; the 20.x lines come from their `community` branches.
  /// Releases after a snapshot (``SDKReleaseRange/recordedThrough``) come from the SDK's
  /// release pages and published changelog as of November 2026: Realm Swift 20.0.4 to 20.0.6
  /// (20.0.5 "Upgraded realm-core from 20.1.4 to 20.1.5"; 20.0.6 in 2026-09), Realm Dart 20.2.0
  /// (2025-09-24, "Using Core 20.0.1") and 3.5.0 (2025-10-23, from the 3.x branch that keeps
  /// Device Sync). Every Realm Core those lines use, 20.0.0 to 20.1.5, writes format 24
  /// (`g_current_file_format_version` at each tag).
  public static let ranges: [SDKReleaseRange] = [
    SDKReleaseRange(.swift, "3.11.0", "4.4.1", "2018-10-04", "2020-04-16", format: 9, releases: 30, realmCore: "5.23.6 to 5.23.8", evidence: .fileFormatLine),
    SDKReleaseRange(.swift, "5.0.0", "5.1.0", "2020-05-15", "2020-06-22", format: 10, releases: 5, realmCore: "6.0.4 to 6.0.6", evidence: .fileFormatLine),
    SDKReleaseRange(.swift, "5.2.0", "5.2.0", "2020-06-30", "2020-06-30", format: 11, releases: 1, realmCore: "10.0.0-beta.1", evidence: .fileFormatLine),
    SDKReleaseRange(.swift, "5.3.0", "5.3.6", "2020-07-14", "2020-09-02", format: 10, releases: 7, realmCore: "6.0.9 to 6.0.23", evidence: .fileFormatLine),
    SDKReleaseRange(.swift, "5.4.0", "5.5.0", "2020-09-09", "2020-10-12", format: 11, releases: 10, realmCore: "6.0.25 to 6.1.4", evidence: .fileFormatLine),
    SDKReleaseRange(.swift, "10.0.0", "10.7.7", "2020-10-16", "2021-06-10", format: 20, releases: 21, realmCore: "10.0.0 to 10.7.2", evidence: .realmCore),
    SDKReleaseRange(.swift, "10.8.0", "10.34.1", "2021-06-14", "2023-01-20", format: 22, releases: 46, realmCore: "11.0.3 to 12.13.0", evidence: .realmCore),
    SDKReleaseRange(.swift, "10.35.0", "10.48.1", "2023-02-07", "2024-03-15", format: 23, releases: 33, realmCore: "13.4.0 to 13.26.0", evidence: .realmCore),
    SDKReleaseRange(.swift, "10.49.0", "10.54.6", "2024-03-22", "2025-10-15", format: 24, releases: 19, realmCore: "14.3.0 to 14.14.0", evidence: .realmCore),
    SDKReleaseRange(.swift, "20.0.0", "20.0.6", "2024-09-09", "2026-09", format: 24, releases: 7, realmCore: "20.0.0 to 20.1.5", evidence: .realmCore, deviceSync: false, recordedThrough: "20.0.3"),

    SDKReleaseRange(.java, "4.0.0", "6.1.0", "2017-10-16", "2020-01-17", format: 9, releases: 40, realmCore: "4.0.2 to 5.23.8", evidence: .fileFormatLine),
    SDKReleaseRange(.java, "7.0.0", "7.0.3", "2020-05-16", "2020-09-01", format: 10, releases: 4, realmCore: "6.0.4 to 6.0.17", evidence: .fileFormatLine),
    SDKReleaseRange(.java, "7.0.4", "7.0.8", "2020-09-08", "2020-10-01", format: 11, releases: 5, realmCore: "6.0.17", evidence: .fileFormatLine),
    SDKReleaseRange(.java, "10.0.0", "10.5.1", "2020-10-15", "2021-06-14", format: 20, releases: 11, realmCore: "10.0.0-beta.9 to 10.8.1", evidence: .fileFormatLine),
    SDKReleaseRange(.java, "10.6.0", "10.13.1", "2021-06-15", "2023-03-16", format: 22, releases: 14, realmCore: "11.0.3 to 12.13.0", evidence: .fileFormatLine),
    SDKReleaseRange(.java, "10.14.0", "10.19.0", "2023-04-13", "2024-09-13", format: 23, releases: 9, realmCore: "13.9.0 to 13.26.0", evidence: .fileFormatLine),

    SDKReleaseRange(.kotlin, "0.2.0", "0.3.2", "2021-06-09", "2021-07-06", format: 20, releases: 4, realmCore: "10.8.0+", evidence: .realmCoreCommit, deviceSync: false),
    SDKReleaseRange(.kotlin, "0.4.0", "0.5.0", "2021-07-13", "2021-08-20", format: 21, releases: 3, realmCore: "11.0.0-beta.4+", evidence: .realmCoreCommit, deviceSync: false),
    SDKReleaseRange(.kotlin, "0.6.0", "0.6.0", "2021-10-15", "2021-10-15", format: 22, releases: 1, realmCore: "11.4.1+", evidence: .realmCoreCommit, deviceSync: false),
    SDKReleaseRange(.kotlin, "0.7.0", "1.5.2", "2021-10-31", "2023-01-10", format: 22, releases: 20, realmCore: "11.5.1+ to 12.12.0", evidence: .realmCore),
    SDKReleaseRange(.kotlin, "1.6.0", "1.14.1", "2023-01-25", "2024-03-19", format: 23, releases: 17, realmCore: "13.2.0 to 13.26.0", evidence: .fileFormatLine),
    SDKReleaseRange(.kotlin, "1.15.0", "2.3.0", "2024-04-17", "2024-09-16", format: 24, releases: 5, realmCore: "14.5.1 to 14.12.0", evidence: .fileFormatLine),
    SDKReleaseRange(.kotlin, "3.0.0", "3.0.0", "2024-10-03", "2024-10-03", format: 24, releases: 1, realmCore: "20.0.1", evidence: .fileFormatLine, deviceSync: false),

    SDKReleaseRange(.javascript, "2.0.0", "5.0.4", "2017-10-17", "2020-04-29", format: 9, releases: 106, realmCore: "4.0.1 to 5.23.8", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "6.0.0", "6.1.0", "2020-05-06", "2020-08-27", format: 10, releases: 7, realmCore: "6.0.4 to 6.0.21", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "6.1.1", "6.1.7", "2020-09-10", "2021-03-13", format: 11, releases: 7, realmCore: "6.0.25 to 6.2.3", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "10.0.0", "10.3.0", "2020-10-14", "2021-03-30", format: 20, releases: 10, realmCore: "10.0.0 to 10.5.6", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "10.4.0", "10.4.0", "2021-04-15", "2021-04-15", format: 21, releases: 1, realmCore: "11.0.0 beta", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "10.4.1", "10.4.2", "2021-05-13", "2021-06-10", format: 20, releases: 2, realmCore: "10.7.2", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "10.5.0", "11.2.0", "2021-06-24", "2022-11-12", format: 22, releases: 30, realmCore: "11.0.3 to 12.12.0", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "11.3.0", "12.6.2", "2022-11-25", "2024-03-04", format: 23, releases: 26, realmCore: "13.1.0 to 13.26.0", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "12.7.0", "12.15.0", "2024-04-17", "2025-08-11", format: 24, releases: 17, realmCore: "14.5.1 to 14.14.0", evidence: .fileFormatLine),
    SDKReleaseRange(.javascript, "20.0.0", "20.2.0", "2024-09-09", "2025-08-11", format: 24, releases: 3, realmCore: "20.0.1 to 20.1.0", evidence: .fileFormatLine, deviceSync: false),

    SDKReleaseRange(.dotnet, "3.3.0", "3.3.0", "2018-11-08", "2018-11-08", format: 9, releases: 1, realmCore: nil, evidence: .fileFormatLine),
    SDKReleaseRange(.dotnet, "5.0.1", "5.1.3", "2020-09-10", "2021-02-10", format: 11, releases: 5, realmCore: "6.0.25 to 6.2.3", evidence: .realmCore),
    SDKReleaseRange(.dotnet, "10.0.1", "10.1.4", "2021-02-02", "2021-05-12", format: 20, releases: 6, realmCore: "10.3.3 to 10.7.2", evidence: .realmCore),
    SDKReleaseRange(.dotnet, "10.2.0", "10.19.0", "2021-06-15", "2023-01-06", format: 22, releases: 25, realmCore: "11.0.3 to 12.13.0", evidence: .realmCore),
    SDKReleaseRange(.dotnet, "10.20.0", "11.7.0", "2023-02-10", "2024-02-05", format: 23, releases: 14, realmCore: "13.4.0 to 13.26.0", evidence: .realmCore),
    SDKReleaseRange(.dotnet, "12.0.0", "12.5.0", "2024-04-17", "2025-01-02", format: 24, releases: 7, realmCore: "14.5.1 to 14.13.0", evidence: .realmCore),
    SDKReleaseRange(.dotnet, "20.0.0", "20.1.0", "2024-09-09", "2025-01-07", format: 24, releases: 2, realmCore: "20.0.1 to 20.1.2", evidence: .realmCore, deviceSync: false),

    SDKReleaseRange(.dart, "1.0.0", "1.9.0", "2023-02-07", "2024-02-02", format: 23, releases: 14, realmCore: "13.4.0 to 13.26.0", evidence: .realmCore),
    SDKReleaseRange(.dart, "2.0.0", "3.5.0", "2024-03-20", "2025-10-23", format: 24, releases: 13, realmCore: "14.3.0 to 14.11.0", evidence: .realmCore, recordedThrough: "3.4.2"),
    SDKReleaseRange(.dart, "20.0.0", "20.2.0", "2024-09-09", "2025-09-24", format: 24, releases: 5, realmCore: "20.0.1", evidence: .realmCore, deviceSync: false, recordedThrough: "20.1.1"),
  ]
}

/// Releases of one SDK from ``first`` to ``last``.
public struct SDKReleaseSpan: Sendable, Hashable {
  /// The SDK.
  public var sdk: RealmSDK
  /// The first release.
  public var first: String
  /// The last release.
  public var last: String

  /// Creates a span.
  public init(sdk: RealmSDK, first: String, last: String) {
    self.sdk = sdk
    self.first = first
    self.last = last
  }

  /// `Realm JS 10.5.0-12.15.0`, or `Realm JS 10.4.0` for one release.
  public var text: String { "\(sdk.name) \(first == last ? first : "\(first)-\(last)")" }
}

/// Which SDK releases open a file (``SDKReleases/openers(format:history:)``).
public struct SDKOpeners: Sendable, Equatable {
  /// Releases that open the file as it is (the ones that write its format).
  public var asIs: [SDKReleaseSpan]
  /// Releases that open it after upgrading it to their own newer format.
  public var afterUpgrade: [SDKReleaseSpan]
  /// For a synced realm: releases that read its format but have no Device Sync, so refuse it
  /// (they open the local realm `realmctl unsync` writes). Empty for a local realm.
  public var withoutDeviceSync: [SDKReleaseSpan]

  /// Creates the lists.
  public init(asIs: [SDKReleaseSpan], afterUpgrade: [SDKReleaseSpan], withoutDeviceSync: [SDKReleaseSpan]) {
    self.asIs = asIs
    self.afterUpgrade = afterUpgrade
    self.withoutDeviceSync = withoutDeviceSync
  }
}
