import HTTPServer
import RealmJSON
import RealmModel
import RealmStorage

/// `realmctl studio`: the page and its JSON API over the files named on the command line, as
/// one handler of HTTP requests (docs/commands/studio.md documents every endpoint).
///
/// ```swift
/// let studio = Studio(files: ["app.realm"], csrfToken: access.csrfToken)
/// let server = try HTTPServer(configuration: .init(port: 0), handler: access.wrap(studio.handle))
/// ```
///
/// It reads through the libraries (`ObjectBrowser`, `RealmQuery`, the dump writers and model
/// formatters of RealmExport) and edits through the engine of `insert`, `update` and `delete`
/// (`DataEditor`), with their checks and messages. It serves only the files it was given:
/// a request names a file by its number, never by a path. It trusts the security of the guard
/// in front of it (`LocalAccessGuard`: token, host, origin and CSRF checks).
public final class Studio: Sendable {
  /// What the studio may do.
  public struct Options: Sendable {
    /// Never write: every file is shown read-only.
    public var readOnly: Bool
    /// The CSRF token the page sends with every state-changing request (the guard's).
    public var csrfToken: String
    /// Objects of a page at most.
    public var maxPageSize: Int
    /// Objects a sorted view reaches at most (a SORT keeps the first ones of a scan).
    public var maxSortedWindow: Int

    /// Options for a studio that may edit unless `readOnly`.
    public init(readOnly: Bool = false, csrfToken: String, maxPageSize: Int = 1000, maxSortedWindow: Int = 100_000) {
      self.readOnly = readOnly
      self.csrfToken = csrfToken
      self.maxPageSize = maxPageSize
      self.maxSortedWindow = maxSortedWindow
    }
  }

  /// The options.
  public let options: Options
  let files: [StudioFile]

  /// A studio of the files at `paths` (checked by the caller), read with `key` where a file is
  /// encrypted.
  public init(files paths: [String], key: EncryptionKey? = nil, options: Options) {
    self.options = options
    files = paths.enumerated().map { StudioFile(id: $0.offset, path: $0.element, key: key) }
  }

  /// Answers one request (behind the guard).
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    let route = StudioRoute(request.path)
    do {
      return try respond(to: request, route: route)
    } catch {
      return StudioError.from(error, className: route.className).response
    }
  }

  private func respond(to request: HTTPRequest, route: StudioRoute) throws -> HTTPResponse {
    switch (request.method, route) {
    case ("GET", .page), ("HEAD", .page):
      return StudioAssets.page(csrfToken: options.csrfToken)
    case ("GET", .asset(let name)), ("HEAD", .asset(let name)):
      return try StudioAssets.asset(name)
    case ("GET", .files):
      return fileList()
    case ("GET", .file(let f)):
      return try info(try file(f))
    case ("POST", .key(let f)):
      return try setKey(try file(f), request)
    case ("POST", .unsync(let f)):
      return try unsync(try file(f), request)
    case ("GET", .changes(let f)):
      return changes(try file(f))
    case ("GET", .schema(let f)):
      return try schema(try file(f))
    case ("GET", .model(let f, let language)):
      return try model(try file(f), language: language, request)
    case ("GET", .objects(let f, let c)):
      return try page(try file(f), className: c, request)
    case ("POST", .objects(let f, let c)):
      return try insert(try file(f), className: c, request)
    case ("GET", .count(let f, let c)):
      return try count(try file(f), className: c, request)
    case ("GET", .object(let f, let c, let key)):
      return try object(try file(f), className: c, key: key)
    case ("POST", .object(let f, let c, let key)):
      return try update(try file(f), className: c, key: key, request)
    case ("GET", .value(let f, let c, let key)):
      return try value(try file(f), className: c, key: key, request)
    case ("POST", .delete(let f, let c)):
      return try delete(try file(f), className: c, request)
    case ("GET", .export(let f, let c)):
      return try export(try file(f), className: c, request)
    case ("POST", .import(let f, let c)):
      return try importObjects(try file(f), className: c, request)
    case (_, .notFound):
      throw StudioError.notFound("no such page: \(request.path)")
    default:
      return HTTPResponse.error(405, "\(request.method) is not allowed here")
    }
  }

  /// The file with number `id`: only the files named on the command line exist.
  func file(_ id: Int) throws -> StudioFile {
    guard files.indices.contains(id) else { throw StudioError.notFound("no file \(id): the studio serves \(files.count) file(s)") }
    return files[id]
  }

  /// `GET /api/files`: the files, in command-line order.
  private func fileList() -> HTTPResponse {
    var w = JSONWriter(indent: 0, capacity: 512)
    w.beginObject()
    w.member("readOnly", options.readOnly)
    w.key("files")
    w.beginArray()
    for f in files {
      w.beginObject()
      w.member("id", f.id)
      w.member("name", f.name)
      w.member("path", f.path)
      w.endObject()
    }
    w.endArray()
    w.endObject()
    return .json(w.buffer)
  }

  /// `GET /api/files/ID/changes`: the file's generation, which advances when it changes on disk.
  private func changes(_ file: StudioFile) -> HTTPResponse {
    var w = JSONWriter(indent: 0, capacity: 64)
    w.beginObject()
    w.member("generation", file.generation())
    w.endObject()
    return .json(w.buffer)
  }
}
