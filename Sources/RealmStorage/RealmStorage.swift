// Files: mapping, locking, read and write transactions. See docs/Architecture.md.
@_exported import RealmFormat
