/// Byte-wise order of UTF-8 strings and binary data: the order Realm gives strings and
/// binaries in queries, sorts and (from format 24) sets and the string index.
public enum ByteOrder {
  /// -1, 0 or 1 as `a` sorts before, with or after `b`, byte by byte as unsigned values; a
  /// prefix sorts first.
  public static func compare<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int
  where A.Element == UInt8, B.Element == UInt8 {
    var ia = a.makeIterator()
    var ib = b.makeIterator()
    while true {
      switch (ia.next(), ib.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
      }
    }
  }

  /// -1, 0 or 1 as `a` sorts before, with or after `b`, byte by byte as signed `char`
  /// (`StringData::operator<` of Realm Core up to format 23 on x86-64 and Apple platforms):
  /// bytes 0x80 and above sort before ASCII. A prefix sorts first.
  public static func compareAsSignedChars<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int
  where A.Element == UInt8, B.Element == UInt8 {
    compare(a.lazy.map { $0 ^ 0x80 }, b.lazy.map { $0 ^ 0x80 })
  }

  /// ``compare(_:_:)`` with `unsigned`, else ``compareAsSignedChars(_:_:)``: the order of
  /// strings and binaries in a file of a given format (`WritableFileFormat`).
  public static func compare<A: Sequence, B: Sequence>(_ a: A, _ b: B, unsigned: Bool) -> Int
  where A.Element == UInt8, B.Element == UInt8 {
    unsigned ? compare(a, b) : compareAsSignedChars(a, b)
  }
}
