/// What `make` knows about a build and the Swift compiler cannot: the commit, the date and the
/// compiler's full version.
///
/// `make` (scripts/build-stamp.sh) writes `BuildStamp.generated.swift` beside this file, which
/// git ignores: an extension making ``BuildInfo`` conform to this protocol. A plain
/// `swift build` has no such file, and ``BuildInfo/stamp`` is then nil.
protocol BuildStamped {
  /// The commit (12 hexadecimal digits), with `-dirty` when tracked files had changes.
  static var commit: String { get }
  /// The day of the build, `YYYY-MM-DD` in UTC (`SOURCE_DATE_EPOCH`'s day when it was set).
  static var date: String { get }
  /// The Swift compiler's version as `swift --version` printed it (`6.2.1`), or empty.
  static var compiler: String { get }
}

/// The build's stamp, when `make` wrote one.
enum BuildInfo {
  /// The stamp's values, or nil for a build without one.
  static var stamp: (commit: String, date: String, compiler: String)? {
    guard let stamped = BuildInfo.self as Any as? any BuildStamped.Type else { return nil }
    return (stamped.commit, stamped.date, stamped.compiler)
  }
}
