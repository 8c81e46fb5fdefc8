/// Overflow-checked arithmetic for sizes derived from file bytes.
///
/// Untrusted numbers must never trap: these helpers turn overflow into ``FormatError``.
@inlinable
public func checkedAdd(_ a: Int, _ b: Int) throws(FormatError) -> Int {
  let (r, o) = a.addingReportingOverflow(b)
  if o { throw FormatError.limit("size computation overflows (\(a) + \(b))") }
  return r
}

/// Overflow-checked multiplication, see ``checkedAdd(_:_:)``.
@inlinable
public func checkedMul(_ a: Int, _ b: Int) throws(FormatError) -> Int {
  let (r, o) = a.multipliedReportingOverflow(by: b)
  if o { throw FormatError.limit("size computation overflows (\(a) * \(b))") }
  return r
}

/// Converts a file-derived unsigned value to `Int`, throwing when it does not fit.
@inlinable
public func checkedInt(_ v: UInt64, _ what: @autoclosure () -> String) throws(FormatError) -> Int {
  guard let i = Int(exactly: v) else { throw FormatError.corrupt("\(what()) \(v) is out of range") }
  return i
}

/// Converts a file-derived signed value to a non-negative `Int`.
@inlinable
public func checkedNonNegative(_ v: Int64, _ what: @autoclosure () -> String) throws(FormatError) -> Int {
  guard v >= 0, let i = Int(exactly: v) else {
    throw FormatError.corrupt("\(what()) \(v) is out of range")
  }
  return i
}
