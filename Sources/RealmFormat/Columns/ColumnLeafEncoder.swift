import RealmModel
/// Writes column leaves from ``ColumnValues``: the same nodes ``TypedLeafEncoder`` writes for
/// the same values, without a `RealmValue` per object when the column's form matches its
/// type (strings from one byte buffer, numbers from plain arrays).
public enum ColumnLeafEncoder {
  /// Writes the leaf of a single-value column of element type `type` (not `.object`);
  /// byte for byte what ``TypedLeafEncoder/leaf(type:nullable:values:tableKeys:format:into:)``
  /// writes for `values.realmValues`, with the same errors.
  public static func leaf<S: NodeSink>(
    type: PropertyType, nullable: Bool, values: ColumnValues, tableKeys: [String: Int64] = [:], into sink: inout S
  ) throws(FormatError) -> Ref {
    switch (type, values) {
    case (.string, .string(let c)) where nullable || !c.hasNulls:
      return try StringLeafEncoder.strings(c, into: &sink)
    case (.int, .int(let c)) where nullable || !c.hasNulls:
      if nullable { return ScalarLeafEncoder.nullableIntegers(optionals(c), into: &sink) }
      return ScalarLeafEncoder.integers(c.values, into: &sink)
    case (.double, .double(let c)) where nullable || !c.hasNulls:
      return ScalarLeafEncoder.doubles(optionals(c), into: &sink)
    case (.float, .float(let c)) where nullable || !c.hasNulls:
      return ScalarLeafEncoder.floats(optionals(c), into: &sink)
    case (.bool, .bool(let c)) where nullable || !c.hasNulls:
      return ScalarLeafEncoder.bools(optionals(c), into: &sink)
    case (.date, .date(let c)) where nullable || !c.hasNulls:
      return ScalarLeafEncoder.timestamps(optionals(c), into: &sink)
    default:
      return try TypedLeafEncoder.leaf(
        type: type, nullable: nullable, values: ArraySlice(values.realmValues), tableKeys: tableKeys, into: &sink)
    }
  }

  static func optionals<T>(_ c: ScalarColumn<T>) -> [T?] {
    guard c.hasNulls else { return c.values.map { $0 } }
    var out: [T?] = []
    out.reserveCapacity(c.count)
    for i in 0..<c.count { out.append(c.nulls[i] ? nil : c.values[i]) }
    return out
  }
}

extension StringLeafEncoder {
  /// A string leaf for a ``StringColumn``, in the form its longest value needs: the same
  /// node as ``strings(_:into:)`` for the same strings.
  public static func strings<S: NodeSink>(_ column: StringColumn, into sink: inout S) throws(FormatError) -> Ref {
    let n = column.count
    var longest = 0
    var anyValue = false
    for i in 0..<n where !column.isNull(i) {
      anyValue = true
      let length = column.length(i)
      if length > longest { longest = length }
    }
    switch form(forLongest: longest) {
    case .short:
      let width = n == 0 ? 0 : shortWidth(longest: anyValue ? longest : -1)
      var payload = [UInt8](repeating: 0, count: n * width)
      column.bytes.withUnsafeBufferPointer { bytes in
        payload.withUnsafeMutableBufferPointer { out in
          for i in 0..<n {
            let end = (i + 1) * width - 1
            if column.isNull(i) {
              out[end] = UInt8(width)
              continue
            }
            let s = column.start(i)
            let length = column.ends[i] - s
            for j in 0..<length { out[i * width + j] = bytes[s + j] }
            out[end] = UInt8(width - 1 - length)
          }
        }
      }
      return sink.append(NodeEncoder.multiplyNode(width: width, count: n, payload: payload))
    case .medium:
      var content = [UInt8]()
      content.reserveCapacity(column.bytes.count + n)
      var offsets = [Int64]()
      offsets.reserveCapacity(n)
      var nulls = [Int64]()
      nulls.reserveCapacity(n)
      column.bytes.withUnsafeBufferPointer { bytes in
        for i in 0..<n {
          content.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[column.start(i)..<column.ends[i]]))
          content.append(0)
          offsets.append(Int64(content.count))
          nulls.append(column.isNull(i) ? 1 : 0)
        }
      }
      return StringLeafEncoder.mediumLeaf(offsets: offsets, content: content, nulls: nulls, into: &sink)
    case .big:
      guard longest <= maxValueLength else {
        throw FormatError.limit("a string of \(longest) bytes is longer than Realm's limit of \(maxValueLength) bytes")
      }
      var refs = [Int64]()
      refs.reserveCapacity(n)
      column.bytes.withUnsafeBufferPointer { bytes in
        for i in 0..<n {
          if column.isNull(i) {
            refs.append(0)
            continue
          }
          var value = Array(UnsafeBufferPointer(rebasing: bytes[column.start(i)..<column.ends[i]]))
          value.append(0)
          refs.append(Int64(sink.append(NodeEncoder.blob(value)).rawValue))
        }
      }
      return sink.append(NodeEncoder.refArray(refs, contextFlag: true))
    }
  }
}
