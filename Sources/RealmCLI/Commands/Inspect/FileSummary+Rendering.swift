import Foundation
import RealmJSON
import RealmStorage
import RealmModel

/// The two shapes of `realmctl open`: aligned text for people and one JSON object for scripts
/// (documented in docs/commands/open.md).
extension FileSummary {
  /// The text report; `problems` (from `--check`) adds a `Check:` section.
  func text(problems: [IntegrityProblem]?) -> String {
    var rows: [(String, String)] = [
      ("Path", path),
      ("Size", FileSummary.byteText(size)),
      ("Encrypted", encryptedText),
      ("File format", FileFormatDescription.text(fileFormat)),
    ]
    rows += sdkRows
    rows += [
      ("Schema version", schemaVersion.map(String.init) ?? "none (unversioned)"),
      ("History", "\(FileSummary.name(of: historyType)) (\(FileSummary.meaning(of: historyType)))"),
      ("Compacted copy", compactedText),
      ("Free space", freeText),
      ("Classes", classesText),
    ]
    rows += syncRows
    if !otherTables.isEmpty {
      rows.append(("Other tables", otherTables.map { "\($0.name) (\(FileSummary.objectsText($0.objects)))" }.joined(separator: ", ")))
    }
    if let problems {
      rows.append(("Check", problems.isEmpty ? "clean" : problems.count == 1 ? "1 problem" : "\(problems.count) problems"))
    }
    let labelWidth = (rows.map(\.0.count).max() ?? 0) + 2
    var out = ""
    for (label, value) in rows {
      let head = label + ":"
      out += head + String(repeating: " ", count: labelWidth - head.count + 1) + value + "\n"
    }
    if !classes.isEmpty {
      out += "\n" + classTable
    }
    if let set = sync?.subscriptions, !set.subscriptions.isEmpty {
      out += "\nSubscriptions:\n"
      for sub in set.subscriptions { out += "  \(UnsyncReport.subscriptionLine(sub))\n" }
    }
    if let problems, !problems.isEmpty {
      out += "\nProblems:\n"
      for problem in problems { out += "  \(problem.kind.rawValue): \(problem.description)\n" }
    }
    return out
  }

  /// The JSON document; `problems` (from `--check`) adds a `check` member.
  func json(problems: [IntegrityProblem]?) -> [UInt8] {
    var w = JSONWriter(indent: 2, capacity: 4096)
    w.beginObject()
    w.member("path", path)
    w.member("size", Int64(size))
    w.member("encrypted", isEncrypted)
    w.member("fileFormat", Int64(fileFormat))
    let format = FileFormatDescription(fileFormat)
    w.member("writtenBy", format.writtenBy)
    w.member("compatibility", format.compatibility)
    w.key("sdkReleases")
    writeSDKReleases(to: &w)
    w.member("schemaVersion", schemaVersion)
    w.member("historyType", FileSummary.name(of: historyType))
    w.member("historySchemaVersion", Int64(historySchemaVersion))
    w.member("compacted", isCompacted)
    w.member("streamingForm", isStreaming)
    w.member("freeSpace", Int64(freeBytes))
    w.member("freeChunks", Int64(freeChunks))
    writeTables("classes", classes, embedded: true, to: &w)
    writeTables("otherTables", otherTables, embedded: false, to: &w)
    w.key("sync")
    if let sync { UnsyncReport.writeSync(sync, to: &w) } else { w.nullValue() }
    if let syncError {
      w.member("syncError", syncError)
    }
    w.member("syncMetadataRealm", syncMetadataUsers != nil)
    if let problems {
      w.key("check")
      w.beginObject()
      w.member("clean", problems.isEmpty)
      w.member("problems", objects: problems) { w, problem in
        w.member("kind", problem.kind.rawValue)
        w.member("offset", problem.offset.map { Int64($0) })
        w.member("message", problem.message)
      }
      w.endObject()
    }
    w.endObject()
    w.buffer.append(0x0A)
    return w.buffer
  }

  // MARK: - Pieces

  /// The rows of a synced realm (what a conversion drops) or of a sync metadata realm.
  private var syncRows: [(String, String)] {
    if let users = syncMetadataUsers {
      return [("Sync metadata", "yes: the sync client's own realm (users, their tokens, file actions; \(FileSummary.objectsText(users).replacingOccurrences(of: "object", with: "user"))), not app data")]
    }
    if let syncError {
      return [("Sync", "the sync history cannot be read: \(syncError)")]
    }
    guard let sync else { return [] }
    var rows: [(String, String)] = []
    var kind = UnsyncReport.kindText(sync.kind)
    if sync.clientFileIdent != 0 { kind += ", client file ident \(sync.clientFileIdent)" }
    if let entries = sync.historyEntries {
      kind += ", \(entries) changeset\(entries == 1 ? "" : "s") in the history"
    }
    rows.append(("Sync", kind))
    rows.append(("Not uploaded", UnsyncReport.pendingText(sync)))
    if let set = sync.subscriptions {
      rows.append(("Subscriptions", UnsyncReport.subscriptionsText(set)))
    }
    var drops = ["the history"]
    if sync.subscriptions != nil { drops.append("the subscriptions") }
    if !sync.syncTables.isEmpty { drops.append("\(sync.syncTables.count) sync table\(sync.syncTables.count == 1 ? "" : "s")") }
    let empty = sync.asymmetricClasses.filter { $0.objects == 0 }
    if !empty.isEmpty {
      drops.append("\(empty.count) empty asymmetric class\(empty.count == 1 ? "" : "es")")
    }
    var text = "`realmctl unsync` drops " + drops.joined(separator: ", ")
    let kept = sync.asymmetricClasses.filter { $0.objects > 0 }
    if !kept.isEmpty {
      text += "; asymmetric \(kept.map(\.name).joined(separator: ", ")) become\(kept.count == 1 ? "s an ordinary class" : " ordinary classes")"
    }
    rows.append(("To local realm", text))
    return rows
  }


  /// `Opens as is in`, `Upgraded by` and, for a synced realm, `Refused by`: the SDK releases
  /// that open the file (docs/file-formats.md). A synced realm opens only in releases with
  /// Device Sync; a sync server's file in none.
  private var sdkRows: [(String, String)] {
    if historyType == .syncServer {
      return [("Opens in", "no Realm SDK release: a sync server's file (`realmctl unsync` writes a local realm)")]
    }
    let openers = SDKReleases.openers(format: fileFormat, history: historyType)
    let synced = historyType == .syncClient ? " (with Device Sync)" : ""
    var rows: [(String, String)] = []
    if !openers.asIs.isEmpty { rows.append(("Opens as is in", SDKReleases.text(openers.asIs) + synced)) }
    if !openers.afterUpgrade.isEmpty { rows.append(("Upgraded by", SDKReleases.text(openers.afterUpgrade) + synced)) }
    if !openers.withoutDeviceSync.isEmpty {
      rows.append(
        ("Refused by", SDKReleases.text(openers.withoutDeviceSync) + " (no Device Sync: they open the local realm `realmctl unsync` writes)"))
    }
    return rows
  }

  /// `{"openAsIs": [{"sdk", "first", "last"}...], "openAfterUpgrade": [...], "withoutDeviceSync": [...]}`.
  private func writeSDKReleases(to w: inout JSONWriter) {
    let openers = SDKReleases.openers(format: fileFormat, history: historyType)
    w.beginObject()
    for (key, spans) in [
      ("openAsIs", openers.asIs), ("openAfterUpgrade", openers.afterUpgrade), ("withoutDeviceSync", openers.withoutDeviceSync),
    ] {
      w.member(key, objects: spans) { w, span in
        w.member("sdk", span.sdk.name)
        w.member("first", span.first)
        w.member("last", span.last)
      }
    }
    w.endObject()
  }

  private var encryptedText: String {
    guard isEncrypted else { return "no" }
    return "yes (AES-256 and HMAC-SHA224 in 4 KiB pages; \(FileSummary.byteText(dataSize)) of data)"
  }

  private var compactedText: String {
    guard isCompacted else { return "no" }
    if isStreaming { return "yes (streaming form, as compaction and writeCopy write it)" }
    return "yes (converted from streaming form by Realm, no commit since)"
  }

  private var freeText: String {
    if isCompacted && freeChunks == 0 { return "none (a compacted copy has no free list)" }
    let chunks = freeChunks == 1 ? "1 chunk" : "\(freeChunks) chunks"
    return "\(FileSummary.byteText(freeBytes)) in \(chunks)"
  }

  private var classesText: String {
    let embedded = classes.filter(\.isEmbedded).count
    guard embedded > 0 else { return String(classes.count) }
    return "\(classes.count) (\(embedded) embedded)"
  }

  /// One line per class: name, object count right-aligned, then `(embedded)` or
  /// `(primary key _id)`.
  private var classTable: String {
    let nameWidth = classes.map(\.name.count).max() ?? 0
    let counts = classes.map { String($0.objects) }
    let countWidth = counts.map(\.count).max() ?? 0
    var out = ""
    for (cls, count) in zip(classes, counts) {
      var line = "  " + cls.name + String(repeating: " ", count: nameWidth - cls.name.count + 2)
      line += String(repeating: " ", count: countWidth - count.count) + count
      line += cls.objects == 1 ? " object" : " objects"
      var notes: [String] = []
      if cls.isEmbedded { notes.append("embedded") }
      if cls.isAsymmetric { notes.append("asymmetric") }
      if let pk = cls.primaryKey { notes.append("primary key \(pk)") }
      if !notes.isEmpty { line += " (" + notes.joined(separator: ", ") + ")" }
      out += line + "\n"
    }
    return out
  }

  /// The member `name`: one object per table (with `embedded` for classes).
  private func writeTables(_ name: String, _ tables: [TableCount], embedded: Bool, to w: inout JSONWriter) {
    w.member(name, objects: tables) { w, table in
      w.member("name", table.name)
      w.member("objects", Int64(table.objects))
      if embedded {
        w.member("embedded", table.isEmbedded)
      }
      w.member("primaryKey", table.primaryKey)
    }
  }

  /// `1 object`, `12 objects`.
  static func objectsText(_ n: Int) -> String { n == 1 ? "1 object" : "\(n) objects" }

  /// `512 bytes`, `16384 bytes (16.0 KiB)`, `3145728 bytes (3.0 MiB)`.
  static func byteText(_ n: Int) -> String {
    let exact = n == 1 ? "1 byte" : "\(n) bytes"
    guard n >= 1024 else { return exact }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(n) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let tenths = Int((value * 10).rounded())
    return "\(exact) (\(tenths / 10).\(tenths % 10) \(units[unit]))"
  }
}
