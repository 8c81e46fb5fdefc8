import RealmJSON
import RealmEdit
import RealmMigration

/// The report of `insert`, `update` and `delete` (and the shell's statements): text for people,
/// JSON for CI.
enum EditReport {
  /// One line per file, then one per class.
  static func text(_ r: EditResult, verb: String) -> String {
    let inserted = r.total(\.inserted)
    let updated = r.total(\.updated)
    let deleted = r.total(\.deleted)
    var what: [String] = []
    if verb == "insert" || inserted > 0 { what.append("\(inserted) inserted") }
    if verb != "delete" || updated > 0 { what.append("\(updated) updated") }
    if verb == "delete" || deleted > 0 { what.append("\(deleted) deleted") }
    let how: String
    switch r.writePath {
    case .none: how = "nothing to write"
    case .columns: how = r.dryRun ? "would be changed in place, column-wise" : "changed in place, column-wise"
    case .objects: how = r.dryRun ? "would be changed in place, object-wise" : "changed in place, object-wise"
    case .append: how = r.dryRun ? "would be appended in place" : "appended in place"
    default: how = r.dryRun ? "would be rewritten" : "rewritten"
    }
    let dry = r.dryRun ? " (dry run: nothing written)" : ""
    var lines = ["\(r.path): \(what.joined(separator: ", ")); \(how)\(dry) in \(MigrationReport.seconds(r.seconds))"]
    for c in r.classes {
      var line = "  \(c.name): \(c.objectsAfter) object\(c.objectsAfter == 1 ? "" : "s")"
      if c.objectsBefore != c.objectsAfter { line += " (was \(c.objectsBefore))" }
      var parts: [String] = []
      if c.inserted > 0 { parts.append("\(c.inserted) inserted") }
      if c.updated > 0 { parts.append("\(c.updated) updated") }
      if c.deleted > 0 { parts.append("\(c.deleted) deleted") }
      if c.embeddedDeleted > 0 { parts.append("\(c.embeddedDeleted) embedded object\(c.embeddedDeleted == 1 ? "" : "s") deleted with them") }
      if !parts.isEmpty { line += ", " + parts.joined(separator: ", ") }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  /// The JSON report.
  static func json(_ r: EditResult) -> [UInt8] {
    var w = JSONWriter(indent: 2)
    w.beginObject()
    w.member("file", r.path)
    w.member("schemaVersion", r.schemaVersion)
    w.member("fileFormat", Int64(r.fileFormat))
    w.member("path", r.writePath.rawValue)
    w.member("dryRun", r.dryRun)
    w.member("inserted", r.total(\.inserted))
    w.member("updated", r.total(\.updated))
    w.member("deleted", r.total(\.deleted))
    w.member("seconds", r.seconds)
    w.member("classes", objects: r.classes) { w, c in
      w.member("name", c.name)
      w.member("objectsBefore", Int64(c.objectsBefore))
      w.member("objectsAfter", Int64(c.objectsAfter))
      w.member("inserted", Int64(c.inserted))
      w.member("updated", Int64(c.updated))
      w.member("deleted", Int64(c.deleted))
      w.member("embeddedDeleted", Int64(c.embeddedDeleted))
    }
    w.endObject()
    w.buffer.append(0x0A)
    return w.buffer
  }
}
