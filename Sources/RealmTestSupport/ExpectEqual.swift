import Testing

/// Records an issue unless `actual == expected`: `#expect(a == b)` as a plain function.
///
/// The suite's bulk comparisons call this instead of the `#expect` macro because a macro costs
/// its call site about 20 ms of compilation (the expansion, then the type checking of
/// `__checkBinaryOperation`'s overloads and closures) and the suite has thousands of them; a
/// generic call costs a fraction of that. A failure shows both values, as `#expect` does, with
/// the comment and the caller's source location. Keep `#expect` where its sub-expression
/// capture says more than two values (a `contains`, a range, a boolean made of several parts).
///
/// ```swift
/// expectEqual(result.status, 0, result.stderr)
/// try expectEqual(TestFiles.bytes(path).count, 4096)
/// ```
///
/// - Parameters:
///   - actual: The value found.
///   - expected: The value it must equal.
///   - comment: Said with the failure (evaluated only then).
///   - sourceLocation: Where the failure is reported; by default, the caller's line.
public func expectEqual<T: Equatable>(
  _ actual: T, _ expected: T, _ comment: @autoclosure () -> String = "", sourceLocation: SourceLocation? = nil,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
  guard actual != expected else { return }
  let note = comment()
  let values = "Expectation failed: \(String(reflecting: actual)) == \(String(reflecting: expected))"
  Issue.record(
    Comment(rawValue: note.isEmpty ? values : "\(values): \(note)"),
    sourceLocation: sourceLocation ?? SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}
