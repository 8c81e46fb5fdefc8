/// Consecutive releases of one SDK that write the same file format.
public struct SDKReleaseRange: Sendable, Hashable {
  /// How the changelog tells the format.
  public enum Evidence: String, Sendable, Hashable {
    /// Its "File format: generates Realms with format vN" line (Realm Java, Kotlin, JS, and
    /// Realm Swift before 10).
    case fileFormatLine
    /// The Realm Core version it names ("Upgraded realm-core from ... to X", "Using Core X"),
    /// and the format that Realm Core release writes (Realm Core's own changelog: "Fileformat:
    /// Generates files with format vN").
    case realmCore
    /// The Realm Core commit it names (early Realm Kotlin), and the format Realm Core wrote at
    /// that commit (`Group::get_target_file_format_version_for_session`).
    case realmCoreCommit
  }

  /// The SDK.
  public var sdk: RealmSDK
  /// The first release of the range (final releases only: betas and release candidates are left out).
  public var first: String
  /// The last release of the range.
  public var last: String
  /// Release date of ``first`` (`yyyy-MM-dd`, from the changelog).
  public var firstDate: String
  /// Release date of ``last``.
  public var lastDate: String
  /// The file format the releases write, and open without upgrading.
  public var fileFormat: Int
  /// Number of final releases in the range.
  public var releases: Int
  /// The Realm Core versions the releases are built on, when the changelog names them.
  public var realmCore: String?
  /// Where the format comes from.
  public var evidence: Evidence

  /// Creates a range.
  public init(
    _ sdk: RealmSDK, _ first: String, _ last: String, _ firstDate: String, _ lastDate: String,
    format: Int, releases: Int, realmCore: String?, evidence: Evidence
  ) {
    self.sdk = sdk
    self.first = first
    self.last = last
    self.firstDate = firstDate
    self.lastDate = lastDate
    self.fileFormat = format
    self.releases = releases
    self.realmCore = realmCore
    self.evidence = evidence
  }

  /// `10.8.0-10.34.1`, or `10.4.0` for a single release.
  public var versions: String { first == last ? first : "\(first)-\(last)" }

  /// `Realm Swift 10.8.0-10.34.1`.
  public var text: String { "\(sdk.name) \(versions)" }
}
