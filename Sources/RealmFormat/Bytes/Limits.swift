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

  /// The defaults.
  public static let `default` = Limits()
  /// Creates the default limits.
  public init() {}
}
