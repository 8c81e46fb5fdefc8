import RealmModel
/// Realm Core 10's object key for an object with a primary key (format 20, §4.9): the low 64
/// bits of the value's `GlobalKey`, with the top two bits cleared (`get_optimistic_local_id_hashed`).
/// `lo` is an Int value itself, for a String or ObjectId the first 8 bytes (little-endian) of
/// the SHA-1 of the value's bytes, for a UUID its bytes 8-15 (little-endian), and 0 for null.
enum PrimaryKeyObjectKey {
  /// The key of the object whose primary key is `value`; nil for a value that cannot be a
  /// primary key.
  static func key(for value: RealmValue) -> Int64? {
    let lo: UInt64
    switch value {
    case .null: lo = 0
    case .int(let i): lo = UInt64(bitPattern: i)
    case .string(let s): lo = littleEndian(SHA1.digest(Array(s.utf8))[0..<8])
    case .objectId(let o): lo = littleEndian(SHA1.digest(o.bytes)[0..<8])
    case .uuid(let u): lo = littleEndian(u.bytes[8..<16])
    default: return nil
    }
    return Int64(bitPattern: lo & 0x3FFF_FFFF_FFFF_FFFF)
  }

  private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var v: UInt64 = 0
    for (i, b) in bytes.enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
    return v
  }
}
