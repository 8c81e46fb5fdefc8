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
  /// Release date of ``last``: `yyyy-MM-dd`, or `yyyy-MM` where only the month is known.
  public var lastDate: String
  /// The file format the releases write, and open without upgrading.
  public var fileFormat: Int
  /// Number of final releases in the range.
  public var releases: Int
  /// The Realm Core versions the releases are built on, when the changelog names them.
  public var realmCore: String?
  /// Where the format comes from.
  public var evidence: Evidence
  /// True when the releases have a sync client (Atlas Device Sync from the SDKs' 10.0, Realm
  /// Object Server's sync before): only they open a synced realm (history `SyncClient`), with
  /// a sync configuration. The SDKs' 20.x line and Realm Kotlin 3 removed it ("All Atlas App
  /// Services and Atlas Device Sync functionality has been removed. Users of Atlas Device Sync
  /// should pin to v10."); Realm Kotlin gained it in 0.7.0.
  public var deviceSync: Bool
  /// The last release of the range that the changelog snapshot this table was read from
  /// records, when the range goes on past it; nil when the snapshot holds the whole range.
  /// The later releases (``last``, ``lastDate``, their count in ``releases``) come from the
  /// SDK's release pages and its published changelog, read in November 2026 (see
  /// docs/file-formats.md, "Which SDK opens which format").
  public var recordedThrough: String?

  /// Creates a range.
  public init(
    _ sdk: RealmSDK, _ first: String, _ last: String, _ firstDate: String, _ lastDate: String,
    format: Int, releases: Int, realmCore: String?, evidence: Evidence, deviceSync: Bool = true,
    recordedThrough: String? = nil
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
    self.deviceSync = deviceSync
    self.recordedThrough = recordedThrough
  }

  /// `10.8.0-10.34.1`, or `10.4.0` for a single release.
  public var versions: String { first == last ? first : "\(first)-\(last)" }

  /// `Realm Swift 10.8.0-10.34.1`.
  public var text: String { "\(sdk.name) \(versions)" }

  /// The range as a span of releases.
  public var span: SDKReleaseSpan { SDKReleaseSpan(sdk: sdk, first: first, last: last) }
}
