/// Bounds that keep a hostile file from causing deep recursion, hangs or huge allocations.
///
/// Hitting one throws ``FormatError/Code/limitExceeded`` naming the limit.
public struct Limits: Sendable {
  /// Maximum depth of any tree walk (B+-trees, cluster trees, nested mixed collections).
  public var maxDepth = 64
  /// Maximum nesting of collections inside mixed values.
  public var maxNesting = 100
  /// Maximum number of elements in one collection read into memory.
  public var maxCollectionCount = 1 << 28
  /// Units of decoded values a reading may spend per byte of the file (``ReadBudget``).
  public var readUnitsPerByte = 16
  /// Units a reading may always spend, however small the file.
  public var minimumReadUnits = 1 << 16
  /// When true, a ``Group`` charges all its readings to one ``ReadBudget`` for its whole life
  /// (a command that opens a file once); when false, every pass over a table and every lookup
  /// has a budget of its own.
  public var sharedReadBudget = false

  /// The defaults.
  public static let `default` = Limits()
  /// The defaults, with one read budget for all the readings of the group: for a command that
  /// opens a file, reads it and ends.
  public static let oneReading: Limits = {
    var limits = Limits()
    limits.sharedReadBudget = true
    return limits
  }()
  /// Creates the default limits.
  public init() {}
}
