import Foundation

/// How many of a large campaign's cases a test runs: a spread-out sample by default
/// (`make test`), every case with `REALMCTL_FULL_FIXTURES=1` (``isFull``; CI's `.ci/run` and
/// `make fuzz`'s campaign set it). See docs/testing.md, "Fixture campaigns".
///
/// The sample is deterministic: the same cases in every run, spread evenly over the list, the
/// first and the last always among them, so that a failure found in CI reproduces at once and
/// each part of a list sorted by file or kind keeps some of its cases.
public enum FixtureSample {
  /// The environment variable that asks for every case.
  public static let environmentVariable = "REALMCTL_FULL_FIXTURES"

  /// True when every case is asked for (the variable set, and not to `0`).
  public static var isFull: Bool {
    guard let value = ProcessInfo.processInfo.environment[environmentVariable] else { return false }
    return !value.isEmpty && value != "0"
  }

  /// `items`, or by default one in `every` of them, spread over the whole list with its first and
  /// last elements kept (every element when `full`, ``isFull`` unless given, or when there are no
  /// more than two).
  public static func spread<T>(_ items: [T], every: Int, full: Bool = isFull) -> [T] {
    guard !full, every > 1, items.count > 2 else { return items }
    let count = max(2, (items.count + every - 1) / every)
    var positions: [Int] = []
    for i in 0..<count {
      let position = i * (items.count - 1) / (count - 1)
      if positions.last != position { positions.append(position) }
    }
    return positions.map { items[$0] }
  }

  /// `items`, or by default the share `part` of `parts` interleaved shares: the elements at
  /// `part`, `part + parts`, `part + 2 × parts`, … (every element when `full`, ``isFull``
  /// unless given). The cases of a parameterised test that each take another share still
  /// exercise every element between them, each on fewer cases.
  public static func share<T>(_ items: [T], part: Int, of parts: Int, full: Bool = isFull) -> [T] {
    guard !full, parts > 1 else { return items }
    let first = ((part % parts) + parts) % parts
    return stride(from: first, to: items.count, by: parts).map { items[$0] }
  }
}
