import RealmModel

/// Whether two rows of values read from a file are the same, as a test means it.
public enum SameValues {
  /// True when `a` and `b` have as many values and each pair is equal, or, where `==` says no
  /// (a NaN, alone or inside a collection), described alike. Only such a pair is described: a
  /// whole row's description (128 KiB binaries and all) costs far more than reading the row.
  public static func rows(_ a: [RealmValue], _ b: [RealmValue]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || "\($0)" == "\($1)" }
  }
}
