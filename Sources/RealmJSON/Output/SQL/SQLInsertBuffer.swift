/// Rows on their way into multi-row `INSERT` statements, one pending statement per table, and
/// the finished SQL text.
///
/// A statement is closed when it has ``maximumRows`` rows or ``maximumBytes`` bytes, so memory
/// is bounded by the number of tables times that size, whatever the number of objects. One
/// buffer can serve a whole dump, or one per chunk of objects encoded in parallel (the chunks'
/// ``output`` written in order after ``closeAll()``).
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

  /// Creates an empty buffer for the tables of `plan`.
  public init(plan: SQLExportPlan) {
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
}
