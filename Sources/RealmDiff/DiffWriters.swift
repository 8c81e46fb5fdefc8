import RealmJSON
import RealmModel
import RealmExport


/// Writes the changes of a ``RealmDiff`` in one output format.
public protocol RealmDiffWriter {
  /// Writes one change.
  mutating func write(_ change: RealmDiffChange) throws
  /// Ends the output.
  mutating func finish() throws
}

/// The output formats of `realmctl diff OLD NEW`.
public enum RealmDiffFormat: String, Sendable, CaseIterable {
  /// Lines for people, grouped by class, optionally coloured.
  case text
  /// One JSON object per change, per line.
  case jsonl
}

/// `--format text`: schema lines, then per class `+` added, `-` removed and `~` changed
/// objects with each changed property as `old -> new`.
public struct DiffTextWriter: RealmDiffWriter {
  let sink: OutputSink
  let values: StableValueText
  let color: Bool
  private var currentClass: String?
  private var schemaHeader = false

  /// Creates the writer; `color` adds ANSI colours (a terminal without `NO_COLOR`).
  public init(diff: RealmDiff, color: Bool, sink: @escaping OutputSink) {
    self.sink = sink
    values = StableValueText(diff)
    self.color = color
  }

  private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

  private func line(_ text: String) throws { try sink(Array((text + "\n").utf8)) }

  public mutating func write(_ change: RealmDiffChange) throws {
    switch change {
    case .schemaVersion(let old, let new):
      try line("Schema version: \(old.map(String.init) ?? "none") -> \(new.map(String.init) ?? "none")")
    case .fileFormat(let old, let new):
      try line("File format: \(old) -> \(new)")
    case .schema(let s):
      if !schemaHeader {
        try line(paint("Schema:", "1"))
        schemaHeader = true
      }
      try line("  " + s.realmMessage)
    case .added(let o):
      try header(o)
      try line(paint("  + \(try values.name(of: o)) \(try object(o))", "32"))
    case .removed(let o):
      try header(o)
      try line(paint("  - \(try values.name(of: o)) \(try object(o))", "31"))
    case .changed(let o, let changes):
      try header(o)
      try line(paint("  ~ \(try values.name(of: o))", "33"))
      for c in changes {
        let mixed = values.isMixed(c.path, in: o.objectSchema, isOld: false)
        try line(
          "      \(c.path): " + paint(try values.text(c.old, inMixed: mixed, isOld: true), "31") + " -> "
            + paint(try values.text(c.new, inMixed: mixed, isOld: false), "32"))
      }
    }
  }

  public mutating func finish() throws {}

  private mutating func header(_ o: DiffObject) throws {
    guard currentClass != o.objectSchema.name else { return }
    currentClass = o.objectSchema.name
    try line(paint("\(o.objectSchema.name):", "1"))
  }

  private func object(_ o: DiffObject) throws -> String {
    var w = JSONWriter(indent: 0, capacity: 256)
    w.beginObject()
    try values.writeProperties(o.objectSchema, o.values, isOld: o.isOld, to: &w)
    w.endObject()
    return String(decoding: w.buffer, as: UTF8.self)
  }
}

/// `--format jsonl`: one JSON object per change and line, with `change` naming its kind:
/// `schemaVersion`, `fileFormat`, `schema`, `added`, `removed`, `changed`.
public struct DiffJSONLinesWriter: RealmDiffWriter {
  let sink: OutputSink
  let values: StableValueText

  /// Creates the writer.
  public init(diff: RealmDiff, sink: @escaping OutputSink) {
    self.sink = sink
    values = StableValueText(diff)
  }

  public mutating func write(_ change: RealmDiffChange) throws {
    var w = JSONWriter(indent: 0, capacity: 256)
    w.beginObject()
    w.key(raw: "change")
    switch change {
    case .schemaVersion(let old, let new):
      w.value("schemaVersion")
      w.key(raw: "old")
      if let old { w.value(old) } else { w.nullValue() }
      w.key(raw: "new")
      if let new { w.value(new) } else { w.nullValue() }
    case .fileFormat(let old, let new):
      w.value("fileFormat")
      w.key(raw: "old")
      w.value(Int64(old))
      w.key(raw: "new")
      w.value(Int64(new))
    case .schema(let s):
      w.value("schema")
      w.key(raw: "class")
      w.value(s.className)
      w.key(raw: "message")
      w.value(s.realmMessage)
      w.key(raw: "needsMigration")
      w.value(s.needsMigration)
    case .added(let o), .removed(let o):
      if case .added = change { w.value("added") } else { w.value("removed") }
      try identity(o, &w)
      w.key(raw: "object")
      w.beginObject()
      try values.writeProperties(o.objectSchema, o.values, isOld: o.isOld, to: &w)
      w.endObject()
    case .changed(let o, let changes):
      w.value("changed")
      try identity(o, &w)
      w.key(raw: "properties")
      w.beginObject()
      for c in changes {
        let mixed = values.isMixed(c.path, in: o.objectSchema, isOld: false)
        w.key(c.path)
        w.beginObject()
        w.key(raw: "old")
        try values.write(c.old, inMixed: mixed, isOld: true, to: &w)
        w.key(raw: "new")
        try values.write(c.new, inMixed: mixed, isOld: false, to: &w)
        w.endObject()
      }
      w.endObject()
    }
    w.endObject()
    w.buffer.append(0x0A)
    try sink(w.buffer)
  }

  public mutating func finish() throws {}

  private func identity(_ o: DiffObject, _ w: inout JSONWriter) throws {
    w.key(raw: "class")
    w.value(o.objectSchema.name)
    switch o.identity {
    case .primaryKey(_, let value):
      w.key(raw: "$pk")
      try values.write(value, inMixed: false, isOld: o.isOld, to: &w)
    case .key(let key):
      w.key(raw: "$key")
      w.value(key)
    }
  }
}

/// `--stat`: the schema changes, then the number of objects added, removed and changed per
/// class, and a total line.
public struct DiffStatWriter: RealmDiffWriter {
  let sink: OutputSink
  private var header: [String] = []
  private var counts: [String: (added: Int, removed: Int, changed: Int)] = [:]
  private var order: [String] = []

  /// Creates the writer.
  public init(sink: @escaping OutputSink) { self.sink = sink }

  public mutating func write(_ change: RealmDiffChange) throws {
    switch change {
    case .schemaVersion(let old, let new):
      header.append("Schema version: \(old.map(String.init) ?? "none") -> \(new.map(String.init) ?? "none")")
    case .fileFormat(let old, let new): header.append("File format: \(old) -> \(new)")
    case .schema(let s): header.append("Schema: " + s.realmMessage)
    case .added(let o): bump(o.objectSchema.name) { $0.added += 1 }
    case .removed(let o): bump(o.objectSchema.name) { $0.removed += 1 }
    case .changed(let o, _): bump(o.objectSchema.name) { $0.changed += 1 }
    }
  }

  private mutating func bump(_ name: String, _ body: (inout (added: Int, removed: Int, changed: Int)) -> Void) {
    if counts[name] == nil {
      counts[name] = (0, 0, 0)
      order.append(name)
    }
    body(&counts[name]!)
  }

  public mutating func finish() throws {
    var lines = header
    let width = order.map(\.count).max() ?? 0
    var total = 0
    for name in order {
      let c = counts[name]!
      total += c.added + c.removed + c.changed
      lines.append(name + String(repeating: " ", count: width - name.count) + "  \(c.added) added, \(c.removed) removed, \(c.changed) changed")
    }
    let objects = "\(total) object\(total == 1 ? "" : "s") differ\(total == 1 ? "s" : "") in \(order.count) class\(order.count == 1 ? "" : "es")"
    lines.append(header.isEmpty && total == 0 ? "The files are the same." : objects)
    try sink(Array((lines.joined(separator: "\n") + "\n").utf8))
  }
}
