// Migration plans, the expression language and the migrator. See docs/Architecture.md.
@_exported import RealmJSON
@_exported import RealmStorage
