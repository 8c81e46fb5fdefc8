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
    w.key("file"); w.value(r.path)
    w.key("ok"); w.value(true)
    w.key("fromVersion"); if let v = r.fromVersion { w.value(v) } else { w.nullValue() }
    w.key("toVersion"); w.value(r.toVersion)
    w.key("method"); w.value(r.method.rawValue)
    w.key("fromFileFormat"); w.value(Int64(r.fromFileFormat))
    w.key("toFileFormat"); w.value(Int64(r.toFileFormat))
    w.key("fileFormatKept"); w.value(r.keptFileFormat)
    w.key("path"); w.value(r.writePath.rawValue)
    w.key("dryRun"); w.value(r.dryRun)
    w.key("seconds"); w.value(r.seconds)
    w.key("classes")
    w.beginArray()
    for c in r.classes {
      w.beginObject()
      w.key("name"); w.value(c.name)
      w.key("renamedFrom"); if let o = c.renamedFrom { w.value(o) } else { w.nullValue() }
      w.key("new"); w.value(c.isNew)
      w.key("objectsBefore"); w.value(Int64(c.objectsBefore))
      w.key("objectsAfter"); w.value(Int64(c.objectsAfter))
      w.key("objectsTouched"); w.value(Int64(c.objectsTouched))
      for (k, list) in [("added", c.added), ("removed", c.removed), ("renamed", c.renamed), ("transformed", c.transformed), ("notes", c.notes)] {
        w.key(k)
        w.beginArray()
        for s in list { w.value(s) }
        w.endArray()
      }
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }

  /// A failed file's entry in the JSON report.
  static func jsonFailure(file: String, message: String, exitCode: Int32, into w: inout JSONWriter) {
    w.beginObject()
    w.key("file"); w.value(file)
    w.key("ok"); w.value(false)
    w.key("error"); w.value(message)
    w.key("exitCode"); w.value(Int64(exitCode))
    w.endObject()
  }
}
