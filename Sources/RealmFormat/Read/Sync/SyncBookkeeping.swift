/// The tables and classes that only Device Sync uses, by the names Realm Core gives them.
///
/// From Realm Core's sources: the subscription store (`sync/subscriptions.cpp`), the sync
/// metadata schema versions (`sync/noinst/sync_metadata_schema.cpp`, `flx_metadata` in its
/// first version), the pending bootstrap store, the pending client reset store, the
/// partition-to-flexible migration store and the sync schema migration store
/// (`sync/noinst/*_store.cpp`, `sync_schema_migration.cpp`). None of them is a `class_` table,
/// so an SDK never shows them; a local realm has no use for them.
public enum SyncBookkeeping {
  /// Plain (non-class) tables written by the sync client.
  public static let tableNames: Set<String> = [
    "sync_internal_schemas", "flx_metadata",
    "flx_subscription_sets", "flx_subscriptions",
    "flx_pending_bootstrap", "flx_pending_bootstrap_progress", "flx_pending_bootstrap_changesets",
    "client_reset_metadata", "flx_migration", "schema_migration_metadata",
  ]

  /// Classes of Realm Object Server's query-based sync (sync 3, 2018-2020): its permission
  /// system (`__Permission`, `__Role`, `__User`, `__Class`, `__Realm`) and its subscriptions
  /// (`__ResultSets`). Apps could link to `__Permission` and `__Role`, so these are only
  /// dropped when no other class links to them.
  public static let queryBasedSyncClasses: Set<String> = [
    "__Class", "__Permission", "__Realm", "__Role", "__User", "__ResultSets",
  ]

  /// True for a plain table that only the sync client uses.
  public static func isSyncTable(_ table: Table) -> Bool {
    table.className == nil && tableNames.contains(table.name)
  }

  /// The table that tells a flexible-sync realm (its subscription sets).
  public static let subscriptionSetsTable = "flx_subscription_sets"
}
