import RealmModel

/// Collects problems up to a bound so hostile files cannot produce unbounded output.
struct ProblemLog {
  private(set) var problems: [IntegrityProblem] = []
  let limit: Int
  private(set) var isFull = false

  init(limit: Int) { self.limit = max(limit, 1) }

  mutating func add(_ kind: IntegrityProblem.Kind, at offset: Int? = nil, _ message: @autoclosure () -> String) {
    guard !isFull else { return }
    if problems.count >= limit {
      problems.append(IntegrityProblem(.limit, "more than \(limit) problems; the check stopped reporting"))
      isFull = true
      return
    }
    problems.append(IntegrityProblem(kind, at: offset, message()))
  }

  mutating func add(_ error: FormatError, _ context: String) {
    let kind: IntegrityProblem.Kind = error.code == .limitExceeded ? .limit : .unreadable
    add(kind, at: error.offset, "\(context): \(error.detail)")
  }
}
