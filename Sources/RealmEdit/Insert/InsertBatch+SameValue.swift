#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import RealmFormat
import RealmModel

extension InsertBatch {
  /// ``sameContent(_:_:)`` of object `row`'s value in a decoded column and `value`, without
  /// a `RealmValue` per stored value for the typed columns (the unchanged-update check of an
  /// upsert reads every given property of every updated object).
  static func sameContent(_ column: ColumnValues, row: Int, _ value: RealmValue) -> Bool {
    switch (column, value) {
    case (.int(let c), .int(let x)):
      return !c.isNull(row) && c.values[row] == x
    case (.bool(let c), .bool(let x)):
      return !c.isNull(row) && c.values[row] == x
    case (.double(let c), .double(let x)):
      guard !c.isNull(row) else { return false }
      let y = c.values[row]
      return y.isNaN ? x.isNaN : y.bitPattern == x.bitPattern
    case (.float(let c), .float(let x)):
      guard !c.isNull(row) else { return false }
      let y = c.values[row]
      return y.isNaN ? x.isNaN : y.bitPattern == x.bitPattern
    case (.date(let c), .date(let x)):
      return !c.isNull(row) && c.values[row] == x
    case (.string(let c), .string(let x)) where !c.isNull(row):
      // The same bytes are the same string; other bytes may still be an equal string
      // (String compares canonical equivalents equal), which the general comparison says.
      var x = x
      let same = x.withUTF8 { utf8 in
        utf8.count == c.length(row)
          && c.bytes.withUnsafeBufferPointer { stored in
            utf8.count == 0 || memcmp(utf8.baseAddress!, stored.baseAddress! + c.start(row), utf8.count) == 0
          }
      }
      return same || sameContent(column.value(at: row), value)
    default:
      return sameContent(column.value(at: row), value)
    }
  }
}
