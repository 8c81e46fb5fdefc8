import RealmFormat

extension ArrayNode {
  /// Every element, signed, in order: read here, in an optimised module, for the tests that
  /// decode whole nodes (unoptimised, a `map` over the indexes cost more than the encoding).
  public func allInts() throws(FormatError) -> [Int64] {
    var out: [Int64] = []
    out.reserveCapacity(count)
    for i in 0..<count { out.append(try get(i)) }
    return out
  }

  /// Every element, unsigned, in order (as ``allInts()``).
  public func allUnsigned() throws(FormatError) -> [UInt64] {
    var out: [UInt64] = []
    out.reserveCapacity(count)
    for i in 0..<count { out.append(try getUnsigned(i)) }
    return out
  }
}
