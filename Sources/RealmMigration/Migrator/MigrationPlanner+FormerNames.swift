import RealmModel
import RealmQuery

/// What became of the names earlier steps renamed or removed, so that a later step naming one
/// is told which step did it and what to write instead, rather than only that the class has
/// no such property.
extension MigrationPlanner {
  /// A property name a class no longer has, and why.
  struct FormerName {
    /// The property's name now, nil when it was removed.
    var current: String?
    /// The step that renamed or removed it (`migrations[0].steps[1]`).
    var step: String
  }

  /// Records that `from` was renamed to `to` by `step`: names that led to `from` lead to `to`.
  static func noteRename(_ w: inout Working, from: String, to: String, step: String) {
    for (name, former) in w.formerNames where former.current == from { w.formerNames[name]?.current = to }
    w.formerNames[from] = FormerName(current: to, step: step)
    w.formerNames[to] = nil
  }

  /// Records that `name` was removed by `step`: names that led to it were removed too.
  static func noteRemoval(_ w: inout Working, name: String, step: String) {
    for (old, former) in w.formerNames where former.current == name { w.formerNames[old] = FormerName(current: nil, step: step) }
    w.formerNames[name] = FormerName(current: nil, step: step)
  }

  /// What a step that names `name`, which `w` no longer has, should be told: the step that
  /// renamed or removed it and, for a rename, what to write (`prefix` + the new name); nil when
  /// no step did.
  static func formerNameNote(_ name: String, in w: Working, prefix: String) -> String? {
    guard let former = w.formerNames[name] else { return nil }
    guard let current = former.current else {
      return "'\(w.schema.name).\(name)' was removed by \(former.step)"
    }
    return "'\(w.schema.name).\(name)' was renamed to '\(current)' by \(former.step); write '\(prefix)\(current)'"
  }

  /// The message of an expression or query error, explained when it names a property that an
  /// earlier step renamed or removed.
  static func explained(_ error: ExpressionError, _ classes: [String: Working], prefix: String) -> String {
    guard let missing = error.missingProperty, let w = classes[missing.className],
      let note = formerNameNote(missing.name, in: w, prefix: prefix)
    else { return error.message }
    return note
  }
}
