import RealmJSON
import RealmStorage

/// What `realmctl open` prints: the file's facts, as aligned text or JSON.
struct OpenSummary {
  let realm: OpenedRealm
  /// Integrity problems when `--check` was given.
  let problems: [IntegrityProblem]?

  var group: Group { realm.file.group }

  static func historyName(_ h: HistoryType) -> String {
    switch h {
    case .none: return "none"
    case .outOfRealm: return "out-of-realm (obsolete)"
    case .inRealm: return "in-realm (a local realm)"
    case .syncClient: return "sync client (a synced realm)"
    case .syncServer: return "sync server"
    }
  }

  static func bytes(_ n: Int) -> String {
    if n < 1024 { return "\(n) bytes" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var v = Double(n) / 1024
    var u = 0
    while v >= 1024 && u < units.count - 1 {
      v /= 1024
      u += 1
    }
    return "\(n) bytes (\((v * 10).rounded() / 10) \(units[u]))"
  }

  /// The aligned text report.
  var text: String {
    var lines: [(String, String)] = [
      ("File", realm.file.path),
      ("Size", Self.bytes(realm.file.fileSize)),
      ("File format", "\(group.fileFormat)"),
      ("Schema version", realm.schema.schemaVersion.map(String.init) ?? "none (unversioned)"),
      ("History", Self.historyName(group.historyType)),
      ("Compacted copy", group.isStreaming ? "yes (streaming form, as written by writeCopy/compact)" : "no"),
      ("Free space", Self.bytes(group.freeBytes)),
    ]
    lines.append(("Classes", "\(realm.schema.classes.count)"))
    var out = lines.map { $0.0.padding(toLength: 16, withPad: " ", startingAt: 0) + $0.1 }
    let counts = realm.objectCounts
    let width = realm.schema.classes.map(\.name.count).max() ?? 0
    for c in realm.schema.classes {
      var line = "  " + c.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
      let n = counts[c.name] ?? 0
      line += "\(n) object\(n == 1 ? "" : "s")"
      var notes: [String] = []
      if c.isEmbedded { notes.append("embedded") }
      if let pk = c.primaryKey { notes.append("primary key \(pk)") }
      if !notes.isEmpty { line += " (" + notes.joined(separator: ", ") + ")" }
      out.append(line)
    }
    let other = otherTables
    if !other.isEmpty {
      out.append("Other tables".padding(toLength: 16, withPad: " ", startingAt: 0) + other.joined(separator: ", "))
    }
    if let problems {
      if problems.isEmpty {
        out.append("Integrity".padding(toLength: 16, withPad: " ", startingAt: 0) + "ok (every node checked)")
      } else {
        out.append("Integrity".padding(toLength: 16, withPad: " ", startingAt: 0) + "\(problems.count) problem\(problems.count == 1 ? "" : "s")")
        for p in problems { out.append("  - \(p)") }
      }
    }
    return out.joined(separator: "\n")
  }

  /// Tables that are not Realm classes (`metadata`, sync or test tables).
  var otherTables: [String] {
    group.tables.map(\.name).filter { !$0.hasPrefix(FormatConstants.classPrefix) && !$0.isEmpty }
  }

  /// The JSON report (documented in docs/commands/open.md).
  var json: [UInt8] {
    var w = JSONWriter(indent: 2)
    w.beginObject()
    w.key("path"); w.value(realm.file.path)
    w.key("size"); w.value(Int64(realm.file.fileSize))
    w.key("fileFormat"); w.value(Int64(group.fileFormat))
    w.key("schemaVersion"); if let v = realm.schema.schemaVersion { w.value(v) } else { w.nullValue() }
    w.key("historyType"); w.value(String(describing: group.historyType))
    w.key("compacted"); w.value(group.isStreaming)
    w.key("freeBytes"); w.value(Int64(group.freeBytes))
    w.key("classes")
    w.beginArray()
    let counts = realm.objectCounts
    for c in realm.schema.classes {
      w.beginObject()
      w.key("name"); w.value(c.name)
      w.key("objects"); w.value(Int64(counts[c.name] ?? 0))
      w.key("embedded"); w.value(c.isEmbedded)
      w.key("primaryKey"); if let pk = c.primaryKey { w.value(pk) } else { w.nullValue() }
      w.endObject()
    }
    w.endArray()
    w.key("otherTables")
    w.beginArray()
    for t in otherTables { w.value(t) }
    w.endArray()
    if let problems {
      w.key("check")
      w.beginObject()
      w.key("ok"); w.value(problems.isEmpty)
      w.key("problems")
      w.beginArray()
      for p in problems { w.value(p.description) }
      w.endArray()
      w.endObject()
    }
    w.endObject()
    w.buffer.append(0x0A)
    return w.buffer
  }
}
