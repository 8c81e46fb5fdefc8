// Migration plans, the expression language and the migrator. See docs/Architecture.md.
@_exported import RealmStorage
