import RealmMigration
/// What a data edit (`insert`, `update`, `delete`) did to a file, or would do (dry run).
public struct EditResult: Sendable, Equatable {
  /// The counts of one class.
  public struct ClassCounts: Sendable, Equatable {
    /// The class.
    public var name: String
    /// Objects before the edit.
    public var objectsBefore = 0
    /// Objects after the edit.
    public var objectsAfter = 0
    /// Objects created.
    public var inserted = 0
    /// Existing objects whose values were set (upserted or updated).
    public var updated = 0
    /// Objects removed.
    public var deleted = 0
    /// Embedded objects removed with their parents.
    public var embeddedDeleted = 0

    /// Counts for `name`, all zero.
    public init(name: String) { self.name = name }
  }

  /// The file.
  public var path: String
  /// The schema version (the same before and after: edits never change it).
  public var schemaVersion: Int64?
  /// The file format before the edit.
  public var fileFormat: Int
  /// How the file was (or would be) written.
  public var writePath: MigrationResult.WritePath
  /// True when nothing was written (`--dry-run`).
  public var dryRun: Bool
  /// The classes the edit touched, by name.
  public var classes: [ClassCounts]
  /// Wall-clock seconds.
  public var seconds: Double
  /// True when `insert` streamed its JSON Lines (decoded while the file was written, nothing
  /// held: ``DataEditor/insert(path:jsonLines:mode:options:)``); false when it checked the
  /// whole input first. Not part of the reports.
  public var streamed = false

  /// The sum of a count over the classes.
  public func total(_ count: KeyPath<ClassCounts, Int>) -> Int { classes.reduce(0) { $0 + $1[keyPath: count] } }
}
