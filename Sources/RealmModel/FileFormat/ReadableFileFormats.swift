/// The file formats realmctl reads: 2 to 11 (Realm Core 0.89 to 6, 2014-2020) and 20 to 24
/// (Realm Core 10 to 14 and 20). No Realm Core released formats 12 to 19; 25 exists only on
/// realm-core's unreleased `next-major` branch.
///
/// The reader refuses every other format with this list in its message; `realmctl version`
/// reports it, beside ``WritableFileFormat``'s cases.
public enum ReadableFileFormats {
  /// The formats read, as ranges in increasing order.
  public static let ranges: [ClosedRange<Int>] = [2...11, 20...24]

  /// Whether files of `format` are read.
  public static func contains(_ format: Int) -> Bool {
    ranges.contains { $0.contains(format) }
  }

  /// Every format read, in increasing order.
  public static var all: [Int] { ranges.flatMap { Array($0) } }

  /// `2 to 11 and 20 to 24`.
  public static var description: String {
    ranges.map { "\($0.lowerBound) to \($0.upperBound)" }.joined(separator: " and ")
  }
}
