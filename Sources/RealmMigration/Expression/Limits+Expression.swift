/// Limits of the expression language, so that no plan or `--where` argument can exhaust
/// the stack, memory or time.
public enum ExpressionLimits {
  /// Longest accepted source, in bytes.
  public static let maxSourceBytes = 16_384
  /// Deepest accepted nesting of the syntax tree (operators, calls, parentheses, paths).
  public static let maxDepth = 256
  /// Longest accepted `matches` pattern, in Unicode scalars.
  public static let maxRegexLength = 1_000
  /// Most instructions a compiled regex may have (counted repetitions expand).
  public static let maxRegexProgram = 10_000
  /// Most arguments of one function call or elements of one list literal.
  public static let maxArguments = 1_000
}
