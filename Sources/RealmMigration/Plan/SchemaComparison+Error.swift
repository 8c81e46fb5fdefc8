import RealmModel

extension SchemaComparison {
  /// The error Realm raises when a file at the same version needs a migration, or nil.
  public static func sameVersionError(_ changes: [SchemaChange]) -> MigrationError? {
    let blocking = changes.filter(\.needsMigration)
    guard !blocking.isEmpty else { return nil }
    let lines = blocking.map { "- " + $0.realmMessage }
    return MigrationError(
      .migrationRequired, (["Migration is required due to the following errors:"] + lines).joined(separator: "\n"))
  }
}
