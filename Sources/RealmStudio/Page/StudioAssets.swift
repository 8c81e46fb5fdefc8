import HTTPServer

/// The page's files, kept in the binary (no CDN, no build step): the HTML shell, its script,
/// its style sheet and its icon. The HTML carries the CSRF token in a `<meta>` tag; the page
/// sends it back with every change.
enum StudioAssets {
  /// The files served at the root, by name.
  static let names: Set<String> = ["app.js", "app.css", "icon.svg"]

  /// `GET /`: the page, with `csrfToken` in its head.
  static func page(csrfToken: String) -> HTTPResponse {
    .html(StudioPage.html.split(separator: "{{CSRF}}", omittingEmptySubsequences: false).joined(separator: csrfToken))
  }

  /// `GET /NAME` for a name of ``names``.
  static func asset(_ name: String) throws -> HTTPResponse {
    switch name {
    case "app.js": return .bytes(Array(StudioPage.script.utf8), contentType: "text/javascript; charset=utf-8")
    case "app.css": return .bytes(Array(StudioPage.style.utf8), contentType: "text/css; charset=utf-8")
    case "icon.svg": return .bytes(Array(StudioPage.icon.utf8), contentType: "image/svg+xml")
    default: throw StudioError.notFound("no such file: \(name)")
    }
  }
}
