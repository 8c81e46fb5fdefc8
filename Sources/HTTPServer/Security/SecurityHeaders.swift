/// The headers every answer of a local page carries (``HTTPServerConfiguration/defaultHeaders``
/// by default). A handler overrides one by setting a header of the same name (a page that
/// needs `img-src data:` sets its own `Content-Security-Policy`).
public enum SecurityHeaders {
  /// The policy: scripts, styles, images and requests from the server itself only (no inline
  /// script or style, no CDN), never framed, no `<base>`, forms posted to the server only.
  public static let contentSecurityPolicy =
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

  /// - `Content-Security-Policy`: ``contentSecurityPolicy``;
  /// - `X-Content-Type-Options: nosniff`: a JSON answer is never run as a script;
  /// - `X-Frame-Options: DENY`: no page frames this one (clickjacking), for browsers without
  ///   `frame-ancestors`;
  /// - `Referrer-Policy: no-referrer`: no address (its token) leaks to another site;
  /// - `Cache-Control: no-store`: no answer (a file's data) stays in a cache;
  /// - `Cross-Origin-Opener-Policy` and `Cross-Origin-Resource-Policy: same-origin`: another
  ///   site cannot hold a window of this one, nor load its answers as images or scripts.
  public static let standard: [(name: String, value: String)] = [
    (name: "Content-Security-Policy", value: contentSecurityPolicy),
    (name: "X-Content-Type-Options", value: "nosniff"),
    (name: "X-Frame-Options", value: "DENY"),
    (name: "Referrer-Policy", value: "no-referrer"),
    (name: "Cache-Control", value: "no-store"),
    (name: "Cross-Origin-Opener-Policy", value: "same-origin"),
    (name: "Cross-Origin-Resource-Policy", value: "same-origin"),
  ]
}
