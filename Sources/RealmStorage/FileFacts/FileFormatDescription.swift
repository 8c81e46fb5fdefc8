import RealmFormat

/// What `open` says about a file format: what wrote it and what can still open it.
///
/// The Realm Core versions come from Realm Core's own history of its file formats
/// (`group.hpp`) and the formats each release writes; which Realm Core accepts which format
/// comes from its upgrade code (Realm Core 6-13 upgrade formats 5-9, Realm Core 14 and 20 only
/// 10 and newer). The SDK versions are the major versions built on those Realm Cores. No
/// released Realm Core writes a format other than 24 after Core 14: Core 20 (the SDKs' 20.x
/// line) writes 24 too, and format 25 exists only on realm-core's unreleased `next-major`
/// branch.
public struct FileFormatDescription: Equatable {
  /// The Realm Core (and year, and SDKs) that write the format.
  public var writtenBy: String
  /// Who can open a file of this format today.
  public var compatibility: String

  public init(_ format: Int) {
    switch format {
    case 0:
      writtenBy = "an empty file: never written to"
      compatibility = "every Realm SDK opens it"
      return
    case 1:
      writtenBy = "the first Realm Core, 2014"
      compatibility = "no Realm Core since 2015 opens it"
      return
    default: break
    }
    writtenBy = FileFormatDescription.writers[format] ?? "no released Realm Core"
    switch format {
    case 2...9:
      // Realm Core 6-13 (2020 to early 2024) upgrade 5-9, Realm Core 5 and older 2-4.
      compatibility = "current SDKs cannot open it: `realmctl upgrade` converts it"
    case 10, 11, 20...23:
      compatibility = "current SDKs upgrade it to format 24 when they open it, as `realmctl upgrade` does"
    case FormatConstants.currentFileFormat:
      compatibility = "current SDKs open it as it is"
    default:
      compatibility = "realmctl cannot read it"
    }
  }

  /// The formats realmctl reads (2 to 11 and 20 to 24), for what sits above the format layer.
  public static let readableFormats: [ClosedRange<Int>] = FormatConstants.readableFileFormats

  /// `9 (Realm Core 4-5, ...; current SDKs cannot open it: ...)`.
  public static func text(_ format: Int) -> String {
    let d = FileFormatDescription(format)
    if format == FormatConstants.currentFileFormat { return "\(format) (\(d.writtenBy))" }
    return "\(format) (\(d.writtenBy); \(d.compatibility))"
  }

  private static let writers: [Int: String] = [
    2: "Realm Core 0.89 or older, 2014-2015: the first Realm Java and Realm Cocoa releases",
    3: "Realm Core 0.90-0.96, 2015: Realm Java 0.8x, Realm Cocoa 0.9x",
    4: "Realm Core 0.97, early 2016",
    5: "Realm Core 1, 2016: Realm Java 1, Realm Cocoa 0.102-1, Realm JS 0.x",
    6: "Realm Core 2.0-2.4, 2016-2017: Realm Java 2, Realm Swift 2.0-2.4, Realm JS 1.0",
    7: "Realm Core 2.5-2.9, 2017: Realm Java 3, Realm Swift 2.5-2.10, Realm JS 1",
    8: "Realm Core 3, 2017",
    9: "Realm Core 4-5, 2017-2020: Realm Java 4-6, Realm Swift 3-4, Realm JS 2-5",
    10: "Realm Core 6, 2020: Realm Java 7, Realm Swift 5, Realm JS 6",
    11: "Realm Core 6, 2020: Realm Java 7, Realm Swift 5, Realm JS 6",
    20: "Realm Core 10, 2020-2021: the first Realm SDKs 10",
    21: "Realm Core 11 betas, 2021: Realm JS 10.4.0, Realm Kotlin 0.4-0.5",
    22: "Realm Core 11-12, 2021-2022: Realm SDKs 10 and Realm JS 11",
    23: "Realm Core 13, 2022-2024",
    24: "Realm Core 14 and 20, 2024 on: the current SDKs",
    25: "no released Realm Core: only realm-core's unreleased next-major branch",
  ]
}
