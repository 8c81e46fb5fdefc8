import RealmFormat
import RealmModel
import RealmStorage
import RealmMigration

/// Would an app with this schema and schema version open the file without a migration block?
///
/// The answer follows Realm's Object Store when an SDK opens a local realm with no migration
/// block (schema mode Automatic): a lower version is refused; at the same version, changes that
/// need a migration are refused with Realm's "Migration is required due to the following
/// errors:" message, and the others (a new class, an index added or removed) are applied by
/// the SDK itself; at a higher version Realm migrates the file as it opens it.
public struct AppSchemaCheck: Sendable, Equatable {
  /// What opening the file would do.
  public enum Verdict: String, Sendable, Equatable {
    /// The schemas are the same (as far as Realm cares) and the versions match.
    case noChanges
    /// Only changes the SDK applies by itself at the same version (classes added, indexes).
    case additiveOnly
    /// The app's version is higher (or the file has none): Realm migrates while opening, running
    /// the app's migration block if it has one.
    case migratesOnOpen
    /// Same version but some change needs a migration: Realm refuses.
    case migrationRequired
    /// Realm would migrate, but the data breaks a rule of the new schema (duplicate primary
    /// keys, an object made embedded without exactly one parent): without a migration block
    /// that fixes the data, Realm refuses.
    case dataRefused
    /// The app's version is lower than the file's: Realm refuses.
    case versionLower
    /// The app's schema itself breaks Realm's rules: Realm refuses it before looking at the
    /// file ("Schema validation failed due to the following errors:").
    case schemaInvalid
  }

  /// Realm's message for data it would refuse (``Verdict/dataRefused``) or for an invalid
  /// schema (``Verdict/schemaInvalid``).
  public var dataMessage: String?
  /// The file's schema version, nil when it has none.
  public var fileVersion: Int64?
  /// The app's schema version.
  public var appVersion: Int64
  /// Every difference from the file's schema to the app's, in Realm's order.
  public var changes: [SchemaChange]
  /// The answer.
  public var verdict: Verdict

  /// Compares the file's schema with the app's.
  public init(fileSchema: Schema, appSchema: Schema, appVersion: Int64) {
    fileVersion = fileSchema.schemaVersion
    self.appVersion = appVersion
    changes = SchemaComparison.changes(from: fileSchema, to: appSchema)
    if let message = AppSchemaValidation.message(for: appSchema) {
      verdict = .schemaInvalid
      dataMessage = message
    } else if let v = fileVersion, appVersion < v {
      verdict = .versionLower
    } else if let v = fileVersion, appVersion == v {
      if changes.contains(where: \.needsMigration) {
        verdict = .migrationRequired
      } else {
        verdict = changes.isEmpty ? .noChanges : .additiveOnly
      }
    } else {
      verdict = changes.isEmpty && fileVersion == appVersion ? .noChanges : .migratesOnOpen
    }
  }

  /// True when Realm refuses to open the file with the app's schema and version (a migration,
  /// a version bump or a fix of the schema is needed).
  public var needsMigration: Bool {
    verdict == .migrationRequired || verdict == .versionLower || verdict == .dataRefused || verdict == .schemaInvalid
  }

  /// The check with the data of the file looked at too, when Realm would migrate it on open:
  /// the rules Realm applies to the data then (see ``Verdict/dataRefused``).
  ///
  /// - Throws: `FormatError` for a damaged file.
  public func checkingData(in group: Group, fileSchema: Schema) throws -> AppSchemaCheck {
    guard verdict == .migratesOnOpen,
      let message = try AppSchemaDataCheck.firstFailure(changes, fileSchema: fileSchema, group: group)
    else { return self }
    var checked = self
    checked.verdict = .dataRefused
    checked.dataMessage = message
    return checked
  }

  /// ``checkingData(in:fileSchema:)`` over an open file: a damaged file throws a `StorageError`
  /// that names it.
  public func checkingData(in file: RealmFile, fileSchema: Schema) throws -> AppSchemaCheck {
    do {
      return try checkingData(in: file.group, fileSchema: fileSchema)
    } catch let error as FormatError {
      throw StorageError.from(error, path: file.path)
    }
  }

  /// Realm's exact message when it refuses, nil when it opens the file.
  public var realmMessage: String? {
    switch verdict {
    case .versionLower:
      return "Provided schema version \(appVersion) is less than last set version \(fileVersion ?? 0)."
    case .migrationRequired:
      return SchemaComparison.sameVersionError(changes)?.message
    case .dataRefused, .schemaInvalid:
      return dataMessage
    case .noChanges, .additiveOnly, .migratesOnOpen:
      return nil
    }
  }

  /// The report for people: Realm's message, or what happens when the app opens the file.
  public var report: String {
    if let realmMessage { return realmMessage }
    let lines = changes.map { "- " + $0.realmMessage }
    switch verdict {
    case .noChanges:
      return "No migration needed: the app's schema matches the file (schema version \(appVersion))."
    case .additiveOnly:
      return (["No migration needed: only additive changes, which the SDK applies itself when it opens the file:"] + lines)
        .joined(separator: "\n")
    default:
      let from = fileVersion.map { "schema version \($0)" } ?? "no schema version"
      if changes.isEmpty {
        return "No migration needed: the schemas match; the SDK sets the schema version \(appVersion) on the file (it has \(from))."
      }
      return (["Realm migrates the file as it opens it (\(from) -> \(appVersion)); the migration block sees these changes:"] + lines)
        .joined(separator: "\n")
    }
  }
}
