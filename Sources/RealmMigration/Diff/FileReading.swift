import RealmFormat
import RealmStorage

/// Runs a read of the file at `path`: a ``FormatError`` (damage) becomes a `StorageError` that
/// names the file, so that a diff of two files says which one is damaged.
func reading<T>(_ path: String, _ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as FormatError {
    throw StorageError.from(error, path: path)
  }
}
