/// A Realm file opened for reading: the mapping and its decoded group.
///
/// Opening never writes and never creates or touches the `.lock` file beside the Realm.
///
/// ```swift
/// let file = try RealmFile.open(path: "default.realm")
/// for table in file.group.tables { print(table.name, table.objectCount) }
/// ```
public struct RealmFile: Sendable {
  /// The path the file was opened with.
  public let path: String
  /// The mapping.
  public let mapping: MappedFile
  /// The decoded group.
  public let group: Group

  /// Size of the file in bytes.
  public var fileSize: Int { mapping.size }

  /// Opens and validates the file at `path`.
  ///
  /// - Throws: ``StorageError``: `fileNotFound`, `permissionDenied`, `notARealmFile`,
  ///   `encrypted` (no mnemonic and a size that is a whole number of 4 KiB pages),
  ///   `unsupportedFormat` (formats <= 9 and unknown ones), `corrupt`, `io`.
  public static func open(path: String, limits: Limits = .default) throws(StorageError) -> RealmFile {
    let mapping = try MappedFile(path: path)
    let reader = mapping.reader
    if !FileHeader.hasMnemonic(reader) {
      if RealmFile.isGitLFSPointer(reader) {
        throw StorageError.file(.notARealmFile, path, "is a Git LFS pointer, not the Realm file: run `git lfs pull` to fetch the file")
      }
      // §1.7: encrypted files are stored in 4 KiB pages with no readable header.
      if mapping.size % 4096 == 0 {
        throw StorageError.from(FormatError(.encrypted, "no Realm mnemonic"), path: path)
      }
      throw StorageError.file(.notARealmFile, path, "is not a Realm file (its header lacks the 'T-DB' mnemonic)")
    }
    do {
      let group = try Group(reader: reader, limits: limits)
      return RealmFile(path: path, mapping: mapping, group: group)
    } catch {
      throw StorageError.from(error, path: path)
    }
  }

  /// True for a Git LFS pointer: the small text file git leaves in place of a file tracked by
  /// Git LFS until `git lfs pull` fetches it (`version https://git-lfs.github.com/spec/v1`).
  static func isGitLFSPointer(_ reader: ByteReader) -> Bool {
    let prefix = Array("version https://git-lfs.github.com/spec/".utf8)
    guard reader.count >= prefix.count, reader.count <= 1024 else { return false }
    return prefix.indices.allSatisfy { reader.base[$0] == prefix[$0] }
  }
}
