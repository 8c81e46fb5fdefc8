import RealmJSON
import RealmStorage
import RealmModel
import RealmRewrite

/// The report of `realmctl unsync`, as text and as JSON (docs/commands/unsync.md), and the
/// sync lines that `open` shares with it.
enum UnsyncReport {
  /// The text report: one summary line, then what was dropped and converted.
  static func text(_ r: UnsyncResult) -> String {
    guard let plan = r.plan, r.converted else {
      let copy = FileRewriteRun.unchangedCopy(to: r.outputPath, dryRun: r.dryRun)
      return "\(r.path) is a local realm already (it has no sync history): nothing to convert\(copy)\n"
    }
    let what = FileRewriteRun.contents(
      objects: (plan.classes + plan.otherTables).map(\.objects).saturatingSum, classes: plan.classes.count,
      otherTables: plan.otherTables.count)
    let facts = "file format \(r.fromFormat) -> \(r.toFormat), \(what), \(r.sizeBefore) -> \(r.sizeAfter) bytes"
    var out: String
    if r.dryRun {
      let target = r.outputPath.map { " to \($0)" } ?? ""
      out = "\(r.path): a local realm would be written\(target) (dry run: nothing written): \(facts)\n"
    } else if let output = r.outputPath {
      out = "Converted \(r.path) to the local realm \(output): \(facts) in \(MigrationReport.seconds(r.seconds))\n"
    } else {
      out = "Converted \(r.path) to a local realm: \(facts) in \(MigrationReport.seconds(r.seconds))\n"
    }
    let verb = r.dryRun ? "Would drop" : "Dropped"
    out += "  \(verb): \(historyText(plan.sync))\n"
    if let set = plan.sync.subscriptions {
      out += "  \(verb): \(set.summaryText)\n"
      for sub in set.subscriptions { out += "    \(subscriptionLine(sub))\n" }
    }
    if !plan.dropped.isEmpty {
      out += "  \(verb): \(countsText(plan.dropped))\n"
    }
    if !plan.convertedAsymmetric.isEmpty {
      let verb = r.dryRun ? "Would convert" : "Converted"
      out += "  \(verb) asymmetric classes to ordinary classes (their objects were never uploaded): \(countsText(plan.convertedAsymmetric))\n"
    }
    if !plan.keptQueryBasedSyncClasses.isEmpty {
      out += "  Kept (linked from the app's classes): \(countsText(plan.keptQueryBasedSyncClasses))\n"
    }
    let newlyOpening = newlyOpening(r)
    if !newlyOpening.isEmpty {
      out += "  \(r.dryRun ? "Would also open" : "Now also opens") in: \(SDKReleases.text(newlyOpening)) (no Device Sync: they refuse a synced realm)\n"
    }
    return out
  }

  /// The SDK releases without Device Sync that open the local realm: they refused the synced
  /// file (the SDKs' 20.x line, early Realm Kotlin). None for a sync server's file, which no
  /// release opened.
  static func newlyOpening(_ r: UnsyncResult) -> [SDKReleaseSpan] {
    guard r.converted, let plan = r.plan, plan.sync.historyType == .syncClient else { return [] }
    return SDKReleases.openers(format: r.toFormat, history: .syncClient).withoutDeviceSync
  }

  /// The sync history and what it says about uploads, in words.
  static func historyText(_ s: SyncState) -> String {
    var parts = ["the sync history (\(FileSummary.name(of: s.historyType)), \(s.kind.text)"]
    if let entries = s.historyEntries {
      parts.append("\(entries) changeset\(entries == 1 ? "" : "s")")
    }
    parts.append(s.pendingText)
    var text = parts.joined(separator: ", ") + ")"
    if s.clientFileIdent != 0 { text += ", the client file ident \(s.clientFileIdent)" }
    return text
  }

  /// `dogs: Dog where age > 2`.
  static func subscriptionLine(_ s: SubscriptionSet.Subscription) -> String {
    "\(s.name ?? "(unnamed)"): \(s.className) where \(s.query)"
  }

  /// `flx_subscriptions (2 objects), sync_internal_schemas (2 objects)`.
  static func countsText(_ counts: [SyncState.TableCount]) -> String {
    counts.map { "\($0.name) (\($0.objects == 1 ? "1 object" : "\($0.objects) objects"))" }.joined(separator: ", ")
  }

  // MARK: - JSON

  /// The JSON report.
  static func json(_ r: UnsyncResult) -> [UInt8] {
    var w = JSONWriter(indent: 2, capacity: 2048)
    w.beginObject()
    w.member("path", r.path)
    w.member("output", r.outputPath)
    w.member("converted", r.converted)
    w.member("dryRun", r.dryRun)
    w.member("fromFormat", Int64(r.fromFormat))
    w.member("toFormat", Int64(r.toFormat))
    w.member("sizeBefore", Int64(r.sizeBefore))
    w.member("sizeAfter", Int64(r.sizeAfter))
    if let plan = r.plan {
      w.key("sync")
      writeSync(plan.sync, to: &w)
      writeCounts("classes", plan.classes, to: &w)
      writeCounts("otherTables", plan.otherTables, to: &w)
      writeCounts("dropped", plan.dropped, to: &w)
      writeCounts("asymmetricConverted", plan.convertedAsymmetric, to: &w)
      writeCounts("keptLinkedSyncClasses", plan.keptQueryBasedSyncClasses, to: &w)
      w.member("alsoOpensIn", objects: newlyOpening(r)) { w, span in
        w.member("sdk", span.sdk.name)
        w.member("first", span.first)
        w.member("last", span.last)
      }
    } else {
      w.key("sync")
      w.nullValue()
    }
    w.endObject()
    w.buffer.append(0x0A)
    return w.buffer
  }

  /// The `sync` object shared by `unsync --json` and `open --json`.
  static func writeSync(_ s: SyncState, to w: inout JSONWriter) {
    w.beginObject()
    w.member("kind", s.kind.rawValue)
    w.member("historyType", FileSummary.name(of: s.historyType))
    w.member("historySchemaVersion", Int64(s.historySchemaVersion))
    w.member("clientFileIdent", s.clientFileIdent)
    w.member("historyEntries", s.historyEntries.map { Int64($0) })
    w.member("pendingUploads", s.pendingUploads.map { Int64($0) })
    w.key("subscriptions")
    if let set = s.subscriptions {
      w.subscriptionSet(set, listKey: "subscriptions")
    } else {
      w.nullValue()
    }
    writeCounts("syncTables", s.syncTables, to: &w)
    writeCounts("asymmetricClasses", s.asymmetricClasses, to: &w)
    w.endObject()
  }

  /// The member `name`: `[{"name": …, "objects": n}, …]`.
  private static func writeCounts(_ name: String, _ counts: [SyncState.TableCount], to w: inout JSONWriter) {
    w.member(name, objects: counts) { w, c in
      w.member("name", c.name)
      w.member("objects", Int64(c.objects))
    }
  }
}
