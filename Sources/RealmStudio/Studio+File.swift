#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import HTTPServer
import RealmExport
import RealmJSON
import RealmMigration
import RealmModel
import RealmRewrite
import RealmStorage

/// The endpoints of a whole file: what `open` shows, the schema and its model code, the key of
/// an encrypted file, the conversion of a synced file.
extension Studio {
  /// `GET /api/files/ID`: the summary `realmctl open` prints, whether the page may edit the
  /// file (and why not), and the file's generation. An encrypted file without its key answers
  /// `{"needsKey": true}` and nothing else.
  func info(_ file: StudioFile) throws -> HTTPResponse {
    let browser: ObjectBrowser
    let generation: Int
    do {
      (browser, generation) = try file.browser()
    } catch let error as StorageError where error.code == .encrypted || (error.code == .wrongKey && file.key == nil) {
      var w = JSONWriter(indent: 0, capacity: 256)
      w.beginObject()
      w.member("id", file.id)
      w.member("name", file.name)
      w.member("path", file.path)
      w.member("needsKey", true)
      w.member("message", "'\(file.name)' is encrypted: give its 64-byte key (128 hexadecimal digits) to open it")
      w.endObject()
      return .json(w.buffer)
    }
    let summary = try FileSummary(browser.file)
    let reason = readOnlyReason(file, summary)
    var w = JSONWriter(indent: 0, capacity: 4096)
    w.beginObject()
    w.member("id", file.id)
    w.member("name", file.name)
    w.member("path", file.path)
    w.member("needsKey", false)
    w.member("generation", generation)
    w.member("editable", reason == nil)
    w.member("readOnlyReason", reason)
    w.member("size", summary.size)
    w.member("encrypted", summary.isEncrypted)
    w.member("dataSize", summary.dataSize)
    w.member("fileFormat", summary.fileFormat)
    let format = FileFormatDescription(summary.fileFormat)
    w.member("writtenBy", format.writtenBy)
    w.member("compatibility", format.compatibility)
    let asIs = SDKReleases.joined(SDKReleases.openingAsIs(format: summary.fileFormat))
    let upgrading = SDKReleases.joined(SDKReleases.openingAfterUpgrade(format: summary.fileFormat))
    w.member("opensAsIsIn", asIs.isEmpty ? nil : SDKReleases.text(asIs))
    w.member("upgradedBy", upgrading.isEmpty ? nil : SDKReleases.text(upgrading))
    w.member("schemaVersion", summary.schemaVersion)
    w.member("historyType", FileSummary.name(of: summary.historyType))
    w.member("history", FileSummary.meaning(of: summary.historyType))
    w.member("compacted", summary.isCompacted)
    w.member("freeSpace", summary.freeBytes)
    w.member("freeChunks", summary.freeChunks)
    w.member("classes", objects: summary.classes) { w, c in
      w.member("name", c.name)
      w.member("objects", c.objects)
      w.member("embedded", c.isEmbedded)
      w.member("asymmetric", c.isAsymmetric)
      w.member("primaryKey", c.primaryKey)
    }
    w.member("otherTables", objects: summary.otherTables) { w, t in
      w.member("name", t.name)
      w.member("objects", t.objects)
    }
    w.key("sync")
    if let sync = summary.sync {
      Self.writeSync(sync, to: &w)
    } else {
      w.nullValue()
    }
    w.member("syncError", summary.syncError)
    w.member("syncMetadataUsers", summary.syncMetadataUsers)
    w.endObject()
    return .json(w.buffer)
  }

  /// Why the page may not edit `file`, nil when it may: the studio's `--read-only`, a file or
  /// directory the user cannot write, a format edits would not keep, a synced realm, tables
  /// that are not Realm classes, or an app holding the file's lock.
  func readOnlyReason(_ file: StudioFile, _ summary: FileSummary) -> String? {
    if options.readOnly { return "the studio was started with --read-only" }
    if access(file.path, W_OK) != 0 { return "you may not write '\(file.path)' (\(String(cString: strerror(errno))))" }
    let directory = file.path.contains("/") ? String(file.path[..<file.path.lastIndex(of: "/")!]) : "."
    if access(directory.isEmpty ? "/" : directory, W_OK) != 0 {
      return "you may not write in the directory of '\(file.path)', where an edit writes the new file before it replaces the old one"
    }
    if WritableFileFormat(keeping: summary.fileFormat) == nil {
      return "file format \(summary.fileFormat): edits keep a file's format, and realmctl writes formats 20 and 22 to 24 (`realmctl upgrade` converts this file)"
    }
    if summary.historyType == .syncClient || summary.historyType == .syncServer {
      return "a synced realm: realmctl edits local realms only (convert it to a local realm first)"
    }
    let foreign = summary.otherTables.map(\.name).filter { $0 != "metadata" && $0 != "pk" && !$0.isEmpty }
    if !foreign.isEmpty {
      return "the file has tables that are not Realm classes (\(foreign.joined(separator: ", "))); realmctl edits Realm SDK files only"
    }
    return file.editing { () -> String? in
      do {
        let lock = try FileLock(exclusiveForRealmAt: file.path)
        lock.release()
        return nil
      } catch let error as StorageError {
        if error.code == .locked {
          return "an app has the file open (its lock '\(FileLock.lockPath(forRealmAt: file.path))' is taken): close it to edit; the page shows the file as it is on disk"
        }
        return error.detail
      } catch {
        return String(describing: error)
      }
    }
  }

  /// The sync state of a synced realm, as `open` describes it.
  static func writeSync(_ sync: SyncState, to w: inout JSONWriter) {
    w.beginObject()
    w.member("kind", sync.kind.rawValue)
    let kind: String
    switch sync.kind {
    case .flexible: kind = "flexible sync"
    case .partition: kind = "partition-based sync"
    case .objectServer: kind = "Realm Object Server sync"
    case .server: kind = "sync server file"
    }
    w.member("description", kind)
    w.member("clientFileIdent", String(sync.clientFileIdent))
    w.member("historyEntries", sync.historyEntries)
    w.member("pendingUploads", sync.pendingUploads)
    if let set = sync.subscriptions {
      w.key("subscriptions")
      w.subscriptionSet(set, listKey: "items")
    }
    w.member("syncTables", objects: sync.syncTables) { w, t in
      w.member("name", t.name)
      w.member("objects", t.objects)
    }
    w.member("asymmetricClasses", objects: sync.asymmetricClasses) { w, t in
      w.member("name", t.name)
      w.member("objects", t.objects)
    }
    w.endObject()
  }

  /// `GET /api/files/ID/schema`: every class with its properties (type, collection, target,
  /// optional, indexed, primary key), object count, and the classes linking to it.
  func schema(_ file: StudioFile) throws -> HTTPResponse {
    let (browser, generation) = try file.browser()
    let schema = browser.schema
    var w = JSONWriter(indent: 0, capacity: 8192)
    w.beginObject()
    w.member("generation", generation)
    w.member("schemaVersion", schema.schemaVersion)
    w.key("classes")
    w.beginArray()
    for cls in schema.classes {
      w.beginObject()
      w.member("name", cls.name)
      w.member("embedded", cls.isEmbedded)
      w.member("primaryKey", cls.primaryKey)
      w.member("objects", (try? browser.objectCount(of: cls.name)) ?? 0)
      w.member("properties", objects: cls.properties) { w, p in
        w.member("name", p.name)
        w.member("type", p.type.rawValue)
        w.member("collection", p.collection.rawValue)
        w.member("objectType", p.objectType)
        w.member("optional", p.isOptional)
        // Indexed as Realm's schema says it (either kind), and which kind.
        w.member("indexed", p.indexKind != .none)
        w.member("indexKind", p.indexKind.rawValue)
        w.member("primaryKey", p.name == cls.primaryKey)
      }
      // Linking objects: the properties of other classes whose links point here.
      w.key("linkedFrom")
      w.beginArray()
      for other in schema.classes {
        for p in other.properties where p.type == .object && p.objectType == cls.name {
          w.beginObject()
          w.member("class", other.name)
          w.member("property", p.name)
          w.member("collection", p.collection.rawValue)
          w.endObject()
        }
      }
      w.endArray()
      w.endObject()
    }
    w.endArray()
    w.endObject()
    return .json(w.buffer)
  }

  /// The languages of `GET /api/files/ID/models/LANGUAGE`, as the page lists them.
  static let modelLanguages: [(SchemaFormat, String)] = [
    (.swift, "Swift"), (.kotlin, "Kotlin"), (.java, "Java"), (.javascript, "JavaScript"), (.typescript, "TypeScript"),
    (.dart, "Dart"), (.csharp, "C#"),
  ]

  /// `GET /api/files/ID/models/LANGUAGE[?class=C]`: the model code of `realmctl schema
  /// --format LANGUAGE`, as text.
  func model(_ file: StudioFile, language: String, _ request: HTTPRequest) throws -> HTTPResponse {
    guard let format = SchemaFormat(rawValue: language), Self.modelLanguages.contains(where: { $0.0 == format }) || format == .text || format == .json else {
      throw StudioError.notFound("no model code for '\(language)': one of \(Self.modelLanguages.map(\.0.rawValue).joined(separator: ", "))")
    }
    let (browser, _) = try file.browser()
    let only = request.queryValue("class")
    if let only, browser.schema.objectSchema(named: only) == nil {
      throw RealmInput.unknownClass(only, among: browser.schema.classes.map(\.name), path: file.path)
    }
    return .bytes(format.render(browser.schema, only: only), contentType: "text/plain; charset=utf-8")
  }

  /// `POST /api/files/ID/key` with `{"key": "128 hex digits"}`: the key of an encrypted file,
  /// checked by opening the file with it. It stays in the studio's memory only (never in a URL,
  /// a log or the page's history).
  func setKey(_ file: StudioFile, _ request: HTTPRequest) throws -> HTTPResponse {
    let body = try StudioBody.object(request)
    guard case .string(let hex)? = body["key"] else { throw StudioError.badRequest("the body needs \"key\": 128 hexadecimal digits") }
    let key: EncryptionKey
    do {
      key = try EncryptionKey(hex: Array(hex.utf8))
    } catch {
      throw StudioError(status: 422, message: "the key \(error.description)", field: "key")
    }
    do {
      try file.setKey(key)
    } catch let error as StorageError where error.code == .wrongKey {
      throw StudioError(status: 422, message: error.detail, field: "key")
    }
    return .json(#"{"ok":true}"#)
  }

  /// `POST /api/files/ID/unsync` with `{"name": "local.realm"}`: `realmctl unsync`'s
  /// conversion of a synced realm into a new local realm beside it (never over an existing
  /// file; the studio goes on serving the files it was started with).
  func unsync(_ file: StudioFile, _ request: HTTPRequest) throws -> HTTPResponse {
    guard !options.readOnly else { throw StudioError.conflict("the studio was started with --read-only", code: "readOnly") }
    let body = try StudioBody.object(request)
    guard case .string(let name)? = body["name"] else { throw StudioError.badRequest("the body needs \"name\": the new file's name") }
    guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), !name.contains("\u{0}") else {
      throw StudioError(status: 422, message: "the new file's name must be a plain file name (no '/', not starting with '.')", field: "name")
    }
    let directory = file.path.contains("/") ? String(file.path[...file.path.lastIndex(of: "/")!]) : ""
    let output = directory + name
    if access(output, F_OK) == 0 {
      throw StudioError(status: 422, message: "'\(output)' exists: choose another name", field: "name")
    }
    var options = UpgradeOptions()
    options.outputPath = output
    options.encryptionKey = file.key
    let result = try file.editing { try Unsyncer.unsync(path: file.path, options: options) }
    guard result.converted else {
      throw StudioError(status: 422, message: "'\(file.path)' is a local realm: there is nothing to convert")
    }
    var w = JSONWriter(indent: 0, capacity: 256)
    w.beginObject()
    w.member("ok", true)
    w.member("output", output)
    w.member("fileFormat", result.toFormat)
    w.member("size", result.sizeAfter)
    w.member(
      "message",
      "wrote the local realm '\(output)' (file format \(result.toFormat)); open it with `realmctl studio \(output)`")
    w.endObject()
    return .json(w.buffer)
  }
}
