import RealmFormat
import RealmModel

/// Text forms of ObjectId and UUID used by the dump (`$oid`, `$uuid`): lowercase hex.
package enum HexText {
  /// Appends the 24 lowercase hex digits of an ObjectId.
  package static func append(_ id: ObjectId, to out: inout [UInt8]) {
    appendHex(id.high, digits: 16, to: &out)
    appendHex(UInt64(id.low), digits: 8, to: &out)
  }

  /// Appends a UUID as lowercase `8-4-4-4-12`.
  package static func append(_ id: RealmUUID, to out: inout [UInt8]) {
    appendHex(id.high >> 32, digits: 8, to: &out)
    out.append(UInt8(ascii: "-"))
    appendHex(id.high >> 16 & 0xFFFF, digits: 4, to: &out)
    out.append(UInt8(ascii: "-"))
    appendHex(id.high & 0xFFFF, digits: 4, to: &out)
    out.append(UInt8(ascii: "-"))
    appendHex(id.low >> 48, digits: 4, to: &out)
    out.append(UInt8(ascii: "-"))
    appendHex(id.low & 0xFFFF_FFFF_FFFF, digits: 12, to: &out)
  }

  /// The text `write` appends to an empty buffer.
  static func string(_ write: (inout [UInt8]) -> Void) -> String {
    var out: [UInt8] = []
    write(&out)
    return String(decoding: out, as: UTF8.self)
  }

  private static func appendHex(_ v: UInt64, digits: Int, to out: inout [UInt8]) {
    var shift = (digits - 1) * 4
    while shift >= 0 {
      out.append(hexDigit(UInt8(truncatingIfNeeded: v >> UInt64(shift)) & 0xF))
      shift -= 4
    }
  }

  /// Parses exactly `count` hex digits (either case) into the value; nil otherwise.
  static func parseHex(_ bytes: ArraySlice<UInt8>) -> UInt64? {
    guard bytes.count <= 16 else { return nil }
    var v: UInt64 = 0
    for c in bytes {
      guard let d = HexDigit.value(c) else { return nil }
      v = v << 4 | UInt64(d)
    }
    return v
  }

  /// Parses 24 hex digits.
  static func objectId(_ text: String) -> ObjectId? {
    let b = Array(text.utf8)
    guard b.count == 24, let high = parseHex(b[0..<16]), let low = parseHex(b[16..<24]) else {
      return nil
    }
    return ObjectId(high: high, low: UInt32(truncatingIfNeeded: low))
  }

  /// Parses `8-4-4-4-12` hex digits.
  static func uuid(_ text: String) -> RealmUUID? {
    let b = Array(text.utf8)
    guard b.count == 36, b[8] == 0x2D, b[13] == 0x2D, b[18] == 0x2D, b[23] == 0x2D,
      let a = parseHex(b[0..<8]), let c = parseHex(b[9..<13]), let d = parseHex(b[14..<18]),
      let e = parseHex(b[19..<23]), let f = parseHex(b[24..<36])
    else { return nil }
    return RealmUUID(high: a << 32 | c << 16 | d, low: e << 48 | f)
  }
}

extension ObjectId {
  /// The 24 lowercase hex digits.
  public var hexString: String { HexText.string { HexText.append(self, to: &$0) } }
  /// Parses 24 hex digits (either case); nil otherwise.
  public init?(hexString: String) {
    guard let v = HexText.objectId(hexString) else { return nil }
    self = v
  }
}

extension RealmUUID {
  /// The lowercase `8-4-4-4-12` form.
  public var uuidString: String { HexText.string { HexText.append(self, to: &$0) } }
  /// Parses the `8-4-4-4-12` form (either case); nil otherwise.
  public init?(uuidString: String) {
    guard let v = HexText.uuid(uuidString) else { return nil }
    self = v
  }
}
