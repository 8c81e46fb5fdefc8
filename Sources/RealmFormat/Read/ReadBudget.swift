import Synchronization

/// How much a reading of a file may decode, in proportion to the file's size: what keeps the
/// memory and the output of `dump` bounded by the file, whatever a damaged file's structure
/// claims.
///
/// Every object, value and element read costs units, charged as the reader produces them
/// (see ``cost(ofPayloadBytes:)``):
/// - an object: 1, plus 1 per 16 bytes of its class name and property names (what a dump
///   prints with each object);
/// - a value, collection element, dictionary entry or link: 1, plus 1 per 16 bytes of its
///   string, binary data, dictionary key or link target class name.
///
/// A reading may spend ``Limits/readUnitsPerByte`` units per byte of the file, and at least
/// ``Limits/minimumReadUnits``. Real files spend about one unit per 4 bytes of file or less
/// (docs/file-formats.md, "Bounded reading"): only a damaged file whose trees share or repeat
/// their nodes comes near the limit, and it gets a `limitExceeded` error (exit status 65)
/// instead of expanding without end.
///
/// One budget serves one pass over a table by default; a ``Group`` opened with
/// ``Limits/sharedReadBudget`` charges every pass and lookup to one budget for its whole life
/// (what a command does: its whole run is one reading). Thread-safe: passes on several threads
/// take units from it in chunks.
public final class ReadBudget: Sendable {
  /// The units a whole reading may spend.
  public let limit: Int
  /// The units per byte of file the limit was computed with (nil for a plain limit).
  public let unitsPerByte: Int?
  private let spent = Atomic<Int>(0)

  /// A budget of `limit` units.
  public init(limit: Int) {
    self.limit = max(limit, 0)
    unitsPerByte = nil
  }

  /// The budget of one reading of a file of `fileSize` bytes under `limits`:
  /// `max(limits.minimumReadUnits, limits.readUnitsPerByte × fileSize)`.
  public init(fileSize: Int, limits: Limits = .default) {
    let proportional = max(fileSize, 0).multipliedReportingOverflow(by: limits.readUnitsPerByte)
    limit = max(limits.minimumReadUnits, proportional.overflow ? Int.max : proportional.partialValue)
    unitsPerByte = limits.readUnitsPerByte
  }

  /// A budget without a limit, for walks that decode no values.
  static let unlimited = ReadBudget(limit: .max)

  /// Units spent so far.
  public var unitsSpent: Int { spent.load(ordering: .relaxed) }

  /// The units of a value that carries `bytes` bytes of text or data.
  @inlinable public static func cost(ofPayloadBytes bytes: Int) -> Int { 1 &+ (bytes >> 4) }

  /// Returns `units` taken and not spent.
  func giveBack(_ units: Int) { spent.subtract(units, ordering: .relaxed) }

  /// Words of the message a reading refused for its budget gives (tools and tests look for it).
  public static let exhaustedMarker = "units of values a reading may decode"

  /// Takes `units` from the budget.
  ///
  /// - Throws: ``FormatError`` `limitExceeded` when the reading would spend more than
  ///   ``limit``.
  func take(_ units: Int) throws(FormatError) {
    let total = spent.add(units, ordering: .relaxed).newValue
    guard total > limit else { return }
    // Refused work is not spent: what is reported stays what was decoded.
    spent.subtract(units, ordering: .relaxed)
    let perByte = unitsPerByte.map { ", \($0) per byte of the file" } ?? ""
    throw FormatError.limit(
      "its objects expand to more than the \(limit) \(Self.exhaustedMarker)\(perByte): its trees repeat or share nodes, as no Realm file does")
  }
}
