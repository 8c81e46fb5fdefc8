/// What a request's path names (docs/commands/studio.md, "API"). Files are named by their
/// number, classes by name, objects by key.
enum StudioRoute: Equatable {
  /// `/`: the page.
  case page
  /// `/app.js`, `/app.css`, `/icon.svg`.
  case asset(String)
  /// `/api/files`.
  case files
  /// `/api/files/ID`.
  case file(Int)
  /// `/api/files/ID/key`.
  case key(Int)
  /// `/api/files/ID/unsync`.
  case unsync(Int)
  /// `/api/files/ID/changes`.
  case changes(Int)
  /// `/api/files/ID/schema`.
  case schema(Int)
  /// `/api/files/ID/models/LANGUAGE`.
  case model(Int, String)
  /// `/api/files/ID/classes/CLASS/objects`.
  case objects(Int, String)
  /// `/api/files/ID/classes/CLASS/count`.
  case count(Int, String)
  /// `/api/files/ID/classes/CLASS/objects/KEY`.
  case object(Int, String, Int64)
  /// `/api/files/ID/classes/CLASS/objects/KEY/value`.
  case value(Int, String, Int64)
  /// `/api/files/ID/classes/CLASS/delete`.
  case delete(Int, String)
  /// `/api/files/ID/classes/CLASS/export`.
  case export(Int, String)
  /// `/api/files/ID/classes/CLASS/import`.
  case `import`(Int, String)
  /// Anything else.
  case notFound

  /// Parses a percent-decoded path.
  init(_ path: String) {
    if path == "/" || path == "/index.html" {
      self = .page
      return
    }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    if parts.count == 1, StudioAssets.names.contains(parts[0]) {
      self = .asset(parts[0])
      return
    }
    guard parts.count >= 2, parts[0] == "api", parts[1] == "files" else {
      self = .notFound
      return
    }
    if parts.count == 2 {
      self = .files
      return
    }
    guard let id = Int(parts[2]), id >= 0 else {
      self = .notFound
      return
    }
    let rest = Array(parts.dropFirst(3))
    switch rest.count {
    case 0: self = .file(id)
    case 1:
      switch rest[0] {
      case "key": self = .key(id)
      case "unsync": self = .unsync(id)
      case "changes": self = .changes(id)
      case "schema": self = .schema(id)
      default: self = .notFound
      }
    case 2 where rest[0] == "models": self = .model(id, rest[1])
    case 3 where rest[0] == "classes" && !rest[1].isEmpty:
      let c = rest[1]
      switch rest[2] {
      case "objects": self = .objects(id, c)
      case "count": self = .count(id, c)
      case "delete": self = .delete(id, c)
      case "export": self = .export(id, c)
      case "import": self = .import(id, c)
      default: self = .notFound
      }
    case 4 where rest[0] == "classes" && rest[2] == "objects":
      guard let key = Int64(rest[3]) else {
        self = .notFound
        return
      }
      self = .object(id, rest[1], key)
    case 5 where rest[0] == "classes" && rest[2] == "objects" && rest[4] == "value":
      guard let key = Int64(rest[3]) else {
        self = .notFound
        return
      }
      self = .value(id, rest[1], key)
    default:
      self = .notFound
    }
  }

  /// The class a route names, if any.
  var className: String? {
    switch self {
    case .objects(_, let c), .count(_, let c), .object(_, let c, _), .value(_, let c, _), .delete(_, let c),
      .export(_, let c), .import(_, let c):
      return c
    default:
      return nil
    }
  }
}
