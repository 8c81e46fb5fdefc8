import RealmJSON
import RealmMigration

/// The report `migrate` and `rename-property` print: text for people, JSON for CI.
enum MigrationReport {
  /// The human report of one file.
  static func text(_ r: MigrationResult) -> String {
    var lines: [String] = []
    let from = r.fromVersion.map(String.init) ?? "none"
    let how: String
    switch r.method {
    case .unchanged: how = "already at the target schema; nothing to do"
    case .inPlace:
      let what = r.writePath == .columns ? ", column-wise" : ", names only"
      how = (r.dryRun ? "would be changed in place" : "changed in place") + what
    case .rewritten: how = r.dryRun ? "would be rewritten" : "rewritten"
    case .reset: how = r.dryRun ? "would be reset to an empty file" : "reset to an empty file"
    }
    let dry = r.dryRun ? " (dry run: nothing written)" : ""
    let formats = FileFormatOption.change(from: r.fromFileFormat, to: r.toFileFormat).map { ", \($0)" } ?? ""
    lines.append("\(r.path): schema version \(from) -> \(r.toVersion)\(formats), \(how)\(dry) in \(seconds(r.seconds))")
    for c in r.classes where !isQuiet(c) {
      var head = "  \(c.name)"
      if let old = c.renamedFrom { head += " (renamed from \(old))" }
      if c.isNew { head += " (new class)" }
      head += ": \(c.objectsAfter) object\(c.objectsAfter == 1 ? "" : "s")"
      if c.objectsBefore != c.objectsAfter { head += " (was \(c.objectsBefore))" }
      if c.objectsTouched > 0 { head += ", \(c.objectsTouched) touched" }
      lines.append(head)
      if !c.added.isEmpty { lines.append("    added:       " + c.added.joined(separator: ", ")) }
      if !c.removed.isEmpty { lines.append("    removed:     " + c.removed.joined(separator: ", ")) }
      if !c.renamed.isEmpty { lines.append("    renamed:     " + c.renamed.joined(separator: ", ")) }
      if !c.transformed.isEmpty { lines.append("    transformed: " + c.transformed.joined(separator: ", ")) }
      for n in c.notes { lines.append("    " + n) }
    }
    return lines.joined(separator: "\n")
  }

  /// Classes with nothing to say are left out of the text report.
  static func isQuiet(_ c: ClassReport) -> Bool {
    c.renamedFrom == nil && !c.isNew && c.added.isEmpty && c.removed.isEmpty && c.renamed.isEmpty
      && c.transformed.isEmpty && c.notes.isEmpty && c.objectsTouched == 0 && c.objectsBefore == c.objectsAfter
  }

  static func seconds(_ s: Double) -> String {
    s < 1 ? "\(Int((s * 1000).rounded())) ms" : "\((s * 100).rounded() / 100) s"
  }

  /// One file's entry in the JSON report.
  static func json(_ r: MigrationResult, into w: inout JSONWriter) {
    w.beginObject()
    w.member("file", r.path)
    w.member("ok", true)
    w.member("fromVersion", r.fromVersion)
    w.member("toVersion", r.toVersion)
    w.member("method", r.method.rawValue)
    w.member("fromFileFormat", Int64(r.fromFileFormat))
    w.member("toFileFormat", Int64(r.toFileFormat))
    w.member("fileFormatKept", r.keptFileFormat)
    w.member("path", r.writePath.rawValue)
    w.member("dryRun", r.dryRun)
    w.member("seconds", r.seconds)
    w.member("classes", objects: r.classes) { w, c in
      w.member("name", c.name)
      w.member("renamedFrom", c.renamedFrom)
      w.member("new", c.isNew)
      w.member("objectsBefore", Int64(c.objectsBefore))
      w.member("objectsAfter", Int64(c.objectsAfter))
      w.member("objectsTouched", Int64(c.objectsTouched))
      for (k, list) in [("added", c.added), ("removed", c.removed), ("renamed", c.renamed), ("transformed", c.transformed), ("notes", c.notes)] {
        w.key(k)
        w.beginArray()
        for s in list { w.value(s) }
        w.endArray()
      }
    }
    w.endObject()
  }

  /// A failed file's entry in the JSON report.
  static func jsonFailure(file: String, message: String, exitCode: Int32, into w: inout JSONWriter) {
    w.beginObject()
    w.member("file", file)
    w.member("ok", false)
    w.member("error", message)
    w.member("exitCode", Int64(exitCode))
    w.endObject()
  }
}
