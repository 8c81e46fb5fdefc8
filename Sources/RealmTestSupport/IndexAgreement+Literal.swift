import RealmFormat
import RealmJSON
import RealmModel

extension IndexAgreement {
  /// Stored values as query-language constants, and Realm's equality of a stored value with
  /// such a constant.
  enum Literal {
    /// The constant for `v` in a query of a property of `type`, and the value Realm parses it
    /// to; nil when the language cannot say it exactly (links, collections, non-finite or
    /// fractional decimals, NaN) or, before format 24, for binaries in `mixed` (Realm Core 13
    /// keeps them among the equal strings, where Core 14 no longer finds them: on Realm's own
    /// files too).
    static func rql(_ v: RealmValue, type: PropertyType, format: Int) -> (String, RealmValue)? {
      switch v {
      case .null: return ("null", .null)
      case .int(let i): return ("\(i)", v)
      case .bool(let b): return (b ? "true" : "false", v)
      case .string(let s): return ("B64\"\(Base64.encode(Array(s.utf8)))\"", v)
      case .data(let d):
        guard type == .mixed, format >= 24, !d.isEmpty else { return nil }
        return ("bin(B64\"\(Base64.encode(d))\")", v)
      case .date(let t): return ("T\(t.seconds):\(t.nanoseconds)", v)
      case .objectId(let o): return ("oid(\(o.hexString))", v)
      case .uuid(let u): return ("uuid(\(u.uuidString))", v)
      case .float(let f):
        guard f.isFinite else { return nil }
        return ("\(f)f", v)
      case .double(let d):
        guard d.isFinite else { return nil }
        return ("\(d)", v)
      case .decimal128(let d):
        // An integral decimal as the int it equals (the language has no decimal constants).
        guard let data = SearchIndex.indexData(v), data.count == 8 else { return nil }
        var i: UInt64 = 0
        for (n, b) in data.enumerated() { i |= UInt64(b) << UInt64(8 * n) }
        let int = RealmValue.int(Int64(bitPattern: i))
        guard SetOrdering.compare(.decimal128(d), int) == 0 else { return nil }
        return ("\(Int64(bitPattern: i))", int)
      default: return nil
      }
    }

    /// Whether Realm's `p == constant` finds a stored value: for a typed property the same
    /// value (strings byte for byte); for an indexed `mixed`, as its index lookup finds it
    /// (`MixedNode<Equal>` with an index): the same index data, and equal by `Mixed::compare`
    /// (numbers across types numerically, other types never equal; before format 24 a string
    /// and a binary of the same bytes are equal).
    static func realmEquals(_ stored: RealmValue, _ constant: RealmValue, type: PropertyType, format: Int) -> Bool {
      if case .null = constant {
        if case .null = stored { return true }
        return false
      }
      if case .null = stored { return false }
      guard type == .mixed else {
        if case .string(let a) = stored, case .string(let b) = constant { return a.utf8.elementsEqual(b.utf8) }
        return stored == constant
      }
      guard let a = SearchIndex.indexData(stored), let b = SearchIndex.indexData(constant), a == b else { return false }
      return SetOrdering.compare(stored, constant, format: format >= 24 ? .v24 : .v22) == 0
    }

    /// The type of a value, for sampling each type of a `mixed` property.
    static func typeName(_ v: RealmValue) -> String { v.typeName }
  }
}
