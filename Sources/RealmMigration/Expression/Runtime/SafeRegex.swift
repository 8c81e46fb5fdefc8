/// A small regular-expression engine that runs in time linear in the input (a Pike VM:
/// all alternatives advance together, no backtracking), so no pattern can hang a migration.
///
/// Syntax: literals, `.` (any scalar but newline), `[...]` and `[^...]` with ranges, `\d \w \s`
/// and `\D \W \S`, escapes `\n \t \r \\ \.` etc., `^` and `$` (start and end of the whole
/// string), groups `(...)` and `(?:...)`, `|`, and the greedy or lazy quantifiers
/// `* + ? {n} {n,} {n,m}`. A leading `(?i)` makes it case-insensitive. Works on Unicode
/// scalars. ``matches(_:)`` searches: it is true when the pattern matches anywhere.
struct SafeRegex: Sendable {
  enum Instruction: Sendable {
    case scalar(UInt32)
    case any
    case set([ClosedRange<UInt32>], negated: Bool)
    case split(Int, Int)
    case jump(Int)
    case assertStart
    case assertEnd
    case match
  }

  private(set) var program: [Instruction] = []
  private(set) var caseInsensitive = false

  /// Compiles `pattern`; the error message says what is wrong and where in the pattern.
  init(_ pattern: String) throws(RegexSyntaxError) {
    var scalars = Array(pattern.unicodeScalars.map(\.value))
    guard scalars.count <= ExpressionLimits.maxRegexLength else {
      throw RegexSyntaxError("pattern is longer than \(ExpressionLimits.maxRegexLength) characters")
    }
    if scalars.starts(with: Array("(?i)".unicodeScalars.map(\.value))) {
      caseInsensitive = true
      scalars.removeFirst(4)
    }
    var parser = RegexParser(scalars: scalars, caseInsensitive: caseInsensitive)
    let tree = try parser.parseAlternation(depth: 0)
    guard parser.atEnd else { throw RegexSyntaxError("unmatched ')' at position \(parser.position + 1)") }
    try emit(tree)
    program.append(.match)
  }

  // MARK: - Compilation

  private mutating func append(_ i: Instruction) throws(RegexSyntaxError) -> Int {
    guard program.count < ExpressionLimits.maxRegexProgram else {
      throw RegexSyntaxError("pattern expands to more than \(ExpressionLimits.maxRegexProgram) steps")
    }
    program.append(i)
    return program.count - 1
  }

  private mutating func emit(_ node: RegexNode) throws(RegexSyntaxError) {
    switch node {
    case .scalar(let s): _ = try append(.scalar(s))
    case .any: _ = try append(.any)
    case .set(let ranges, let negated): _ = try append(.set(ranges, negated: negated))
    case .start: _ = try append(.assertStart)
    case .end: _ = try append(.assertEnd)
    case .sequence(let items):
      for item in items { try emit(item) }
    case .alternation(let a, let b):
      let split = try append(.split(0, 0))
      try emit(a)
      let jump = try append(.jump(0))
      program[split] = .split(split + 1, program.count)
      try emit(b)
      program[jump] = .jump(program.count)
    case .repeat(let item, let min, let max):
      for _ in 0..<min { try emit(item) }
      if let max {
        // Each optional copy: split(take, skip-all).
        var pending: [Int] = []
        for _ in min..<max {
          pending.append(try append(.split(0, 0)))
          try emit(item)
        }
        for p in pending { program[p] = .split(p + 1, program.count) }
      } else {
        let split = try append(.split(0, 0))
        try emit(item)
        _ = try append(.jump(split))
        program[split] = .split(split + 1, program.count)
      }
    }
  }

  // MARK: - Matching

  /// True when the pattern matches somewhere in `text`.
  func matches(_ text: String) -> Bool {
    var input = Array(text.unicodeScalars.map(\.value))
    if caseInsensitive { input = input.map(RegexParser.fold) }
    var marks = [Int](repeating: -1, count: program.count)
    var current: [Int] = []
    var next: [Int] = []
    var stack: [Int] = []
    current.reserveCapacity(program.count)
    next.reserveCapacity(program.count)
    for position in 0...input.count {
      // Start a new attempt at every position (searching, not anchored).
      if add(0, at: position, count: input.count, to: &current, marks: &marks, stack: &stack) { return true }
      if current.isEmpty { continue }
      for pc in current {
        guard position < input.count else { break }
        let c = input[position]
        let advances: Bool
        switch program[pc] {
        case .scalar(let s): advances = s == c
        case .any: advances = c != 0x0A
        case .set(let ranges, let negated): advances = ranges.contains { $0.contains(c) } != negated
        default: advances = false
        }
        if advances, add(pc + 1, at: position + 1, count: input.count, to: &next, marks: &marks, stack: &stack) {
          return true
        }
      }
      swap(&current, &next)
      next.removeAll(keepingCapacity: true)
    }
    return false
  }

  /// Adds the thread at `pc` and everything reachable without consuming input; true when
  /// that reaches `match`.
  private func add(
    _ pc: Int, at position: Int, count: Int, to list: inout [Int], marks: inout [Int], stack: inout [Int]
  ) -> Bool {
    stack.append(pc)
    while let p = stack.popLast() {
      guard p < program.count, marks[p] != position else { continue }
      marks[p] = position
      switch program[p] {
      case .match:
        stack.removeAll(keepingCapacity: true)
        return true
      case .jump(let t): stack.append(t)
      case .split(let a, let b):
        stack.append(b)
        stack.append(a)
      case .assertStart: if position == 0 { stack.append(p + 1) }
      case .assertEnd: if position == count { stack.append(p + 1) }
      case .scalar, .any, .set: list.append(p)
      }
    }
    return false
  }
}

/// A fault in a `matches` pattern.
struct RegexSyntaxError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

extension UInt32 {
  /// The scalar value of an ASCII character, for readable pattern code.
  fileprivate init(ascii c: Unicode.Scalar) { self = c.value }
}
