/// Rows on their way into multi-row `INSERT` statements, one pending statement per table, and
/// the finished SQL text.
///
/// A statement is closed when it has ``maximumRows`` rows or ``maximumBytes`` bytes, so memory
/// is bounded by the number of tables times that size, whatever the number of objects.
///
/// Where a statement ends depends on every row before it, in every table. So chunks of objects
/// encoded in parallel use a *recording* buffer (``init(plan:recordingRows:)``): it renders each
/// row's values but, instead of building statements, appends the row to ``output`` as a record
/// (table, length, values). The one buffer that builds the script then ``replay(_:)``s the
/// chunks' records in order, which makes exactly the statements of the object-by-object export.
public struct SQLInsertBuffer: Sendable {
  /// Rows per statement at most (loading is fastest with a few hundred).
  public static let maximumRows = 500
  /// Bytes per statement, about (a single larger row makes a statement of its own).
  public static let maximumBytes = 1 << 15

  /// Finished statements, ready to be written.
  public var output: [UInt8] = []
  /// `INSERT INTO "T" ("a", "b") VALUES` per table.
  private let prefixes: [[UInt8]]
  /// The open statement of each table, without its final `;`.
  private var pending: [[UInt8]]
  /// Rows in each open statement.
  private var rowCounts: [Int]
  /// True when rows are recorded for ``replay(_:)`` rather than made into statements.
  private let recordsRows: Bool

  /// Bytes before a recorded row's values: its table and the length of its values, each a
  /// little-endian `UInt64`.
  private static let recordHeaderSize = 16

  /// Creates an empty buffer for the tables of `plan`; with `recordingRows`, rows go to
  /// ``output`` as records for another buffer's ``replay(_:)``.
  public init(plan: SQLExportPlan, recordingRows: Bool = false) {
    recordsRows = recordingRows
    prefixes = plan.tables.map { table in
      Array(
        ("INSERT INTO \(SQLIdentifier.quoted(table.name)) ("
          + table.columns.map { SQLIdentifier.quoted($0.name) }.joined(separator: ",") + ") VALUES\n").utf8)
    }
    pending = Array(repeating: [], count: plan.tables.count)
    rowCounts = Array(repeating: 0, count: plan.tables.count)
  }

  /// Adds one row to `table`: `body` appends the comma-separated values (without parentheses).
  /// `body` must not use this buffer.
  mutating func appendRow(table: Int, _ body: (inout [UInt8]) -> Void) {
    if recordsRows {
      record(table: table, body)
      return
    }
    if rowCounts[table] == 0 {
      pending[table].append(contentsOf: prefixes[table])
    } else {
      pending[table].append(contentsOf: [UInt8(ascii: ","), 0x0A])
    }
    pending[table].append(UInt8(ascii: "("))
    body(&pending[table])
    pending[table].append(UInt8(ascii: ")"))
    rowCounts[table] += 1
    if rowCounts[table] >= SQLInsertBuffer.maximumRows || pending[table].count >= SQLInsertBuffer.maximumBytes {
      close(table)
    }
  }

  /// Appends the rows recorded by a recording buffer (its ``output``) as if each had been added
  /// here with ``appendRow(table:_:)``, in order.
  public mutating func replay(_ records: [UInt8]) throws {
    try records.withUnsafeBufferPointer { bytes in
      var at = 0
      while at < bytes.count {
        guard bytes.count - at >= Self.recordHeaderSize else { throw DumpOutputError("a truncated SQL row record") }
        let table = Self.readUInt64(bytes, at), length = Self.readUInt64(bytes, at + 8)
        let start = at + Self.recordHeaderSize
        guard table < prefixes.count, length <= bytes.count - start else {
          throw DumpOutputError("a damaged SQL row record")
        }
        let (t, end) = (Int(table), start + Int(length))
        appendRow(table: t) { $0.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end])) }
        at = end
      }
    }
  }

  /// Ends the open statement of `table`, if any, and moves it to ``output``.
  public mutating func close(_ table: Int) {
    guard rowCounts[table] > 0 else { return }
    output.append(contentsOf: pending[table])
    output.append(contentsOf: [UInt8(ascii: ";"), 0x0A])
    pending[table].removeAll(keepingCapacity: pending[table].capacity <= 2 * SQLInsertBuffer.maximumBytes)
    rowCounts[table] = 0
  }

  /// Ends every open statement, in table order.
  public mutating func closeAll() {
    for t in pending.indices { close(t) }
  }

  // MARK: - Records

  private mutating func record(table: Int, _ body: (inout [UInt8]) -> Void) {
    let header = output.count
    Self.appendUInt64(UInt64(table), to: &output)
    Self.appendUInt64(0, to: &output)
    body(&output)
    let length = UInt64(output.count - header - Self.recordHeaderSize)
    for i in 0..<8 { output[header + 8 + i] = UInt8(truncatingIfNeeded: length >> (8 * i)) }
  }

  private static func appendUInt64(_ v: UInt64, to bytes: inout [UInt8]) {
    for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * i))) }
  }

  private static func readUInt64(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
  }
}
