/// Byte-wise order of UTF-8 strings and binary data: the order Realm gives strings and
/// binaries in queries, sorts and (from format 24) sets and the string index.
public enum ByteOrder {
  /// -1, 0 or 1 as `a` sorts before, with or after `b`, byte by byte as unsigned values; a
  /// prefix sorts first.
  public static func compare<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int
  where A.Element == UInt8, B.Element == UInt8 {
    compare(a, b, by: <)
  }

  /// ``compare(_:_:)`` with the order of two different bytes given by `less`.
  @inline(__always)
  static func compare<A: Sequence, B: Sequence>(_ a: A, _ b: B, by less: (UInt8, UInt8) -> Bool) -> Int
  where A.Element == UInt8, B.Element == UInt8 {
    var ia = a.makeIterator()
    var ib = b.makeIterator()
    while true {
      switch (ia.next(), ib.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let x?, let y?): if x != y { return less(x, y) ? -1 : 1 }
      }
    }
  }
}
