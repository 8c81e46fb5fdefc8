#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The directory of a path and the names in a directory, for the code that syncs a directory
/// or cleans up files beside a realm.
package enum DirectoryEntries {
  /// The directory holding `path` (`.` for a bare name, `/` for a file at the root) and the
  /// last path component.
  package static func split(_ path: String) -> (directory: String, name: Substring) {
    guard let slash = path.lastIndex(of: "/") else { return (".", Substring(path)) }
    return (slash == path.startIndex ? "/" : String(path[..<slash]), path[path.index(after: slash)...])
  }

  /// The names in `directory` (without `.` and `..`), nil when it cannot be opened. Bounded by
  /// the directory's size: names are collected first, so the caller may unlink them.
  package static func names(in directory: String) -> [String]? {
    guard let handle = opendir(directory) else { return nil }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}
