import RealmFormat
import RealmModel

/// Kernels of string operations: concatenation into one buffer per batch, integers as text
/// without a `String` per object.
extension Kernels {
  /// `a + b + …` on strings: null when any part is null (or not a string), as the closure.
  static func concatenation(_ parts: [ColumnKernel]) -> ColumnKernel {
    { (input: KernelInput) throws(KernelFallback) -> ColumnValues in
      let n = input.count
      var columns: [StringColumn] = []
      columns.reserveCapacity(parts.count)
      for p in parts { columns.append(strings(try p(input).checked(n))) }
      var out = StringColumn()
      let anyNull = columns.contains { $0.hasNulls }
      if anyNull { out.nulls = (0..<n).map { row in columns.contains { $0.isNull(row) } } }
      // Each object's length, then every part copied into place, part by part.
      out.ends.reserveCapacity(n)
      var total = 0
      for row in 0..<n {
        if !(anyNull && out.nulls[row]) {
          for c in columns { total += c.length(row) }
        }
        out.ends.append(total)
      }
      if !anyNull { out.nulls = [] }
      var cursor = [Int](repeating: 0, count: n)
      for row in 1..<max(n, 1) { cursor[row] = out.ends[row - 1] }
      out.bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
        guard let target = buffer.baseAddress else { return }
        for c in columns {
          c.bytes.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            for row in 0..<n where !(anyNull && out.nulls[row]) {
              let s = c.start(row)
              let length = c.ends[row] &- s
              if length > 0 { (target + cursor[row]).update(from: from + s, count: length) }
              cursor[row] &+= length
            }
          }
        }
        initialized = total
      }
      return .string(out)
    }
  }

  /// A string column from a kernel's result: strings as they are, anything else null.
  static func strings(_ values: ColumnValues) -> StringColumn {
    if case .string(let c) = values { return c }
    var out = StringColumn()
    for i in 0..<values.count {
      if case .string(let s) = values.value(at: i) { out.append(s) } else { out.appendNull() }
    }
    return out
  }

  /// `string(x)`: integers written as decimal text straight into the column's buffer,
  /// strings as they are, other values through `convert` (a value it cannot convert sends the
  /// batch down the object-by-object path, which reports it).
  static func toText(
    _ arg: @escaping ColumnKernel, convert: @escaping @Sendable (RealmValue) -> RealmValue?
  ) -> ColumnKernel {
    { (input: KernelInput) throws(KernelFallback) -> ColumnValues in
      let values = try arg(input).checked(input.count)
      switch values {
      case .string: return values
      case .int(let ints):
        var out = StringColumn()
        out.bytes.reserveCapacity(ints.count * 8)
        out.ends.reserveCapacity(ints.count)
        if ints.hasNulls { out.nulls = ints.nulls }
        for i in 0..<ints.count {
          if !ints.isNull(i) { appendDecimal(ints.values[i], to: &out.bytes) }
          out.ends.append(out.bytes.count)
        }
        return .string(out)
      default:
        var out: [RealmValue] = []
        out.reserveCapacity(values.count)
        for i in 0..<values.count {
          let v = values.value(at: i)
          if v.isNull {
            out.append(.null)
            continue
          }
          guard let converted = convert(v) else { throw KernelFallback() }
          out.append(converted)
        }
        return .typed(out)
      }
    }
  }

  /// Appends the decimal text of `v` (as ``ValueText/decimal(_:)`` writes it).
  static func appendDecimal(_ v: Int64, to bytes: inout [UInt8]) {
    var n = v.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes >= 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      repeat {
        raw[23 &- count] = 0x30 &+ UInt8(truncatingIfNeeded: n % 10)
        n /= 10
        count &+= 1
      } while n > 0
      if v < 0 {
        count &+= 1
        raw[24 &- count] = UInt8(ascii: "-")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 &- count), count: count))
    }
  }
}
