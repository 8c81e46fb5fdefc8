/// The reason phrases of the status codes (RFC 9110 §15).
public enum HTTPStatus {
  /// The standard reason phrase of `code` ("Not Found"), or a generic one for its class.
  public static func reason(_ code: Int) -> String {
    switch code {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 406: "Not Acceptable"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 410: "Gone"
    case 411: "Length Required"
    case 412: "Precondition Failed"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 416: "Range Not Satisfiable"
    case 417: "Expectation Failed"
    case 421: "Misdirected Request"
    case 422: "Unprocessable Content"
    case 423: "Locked"
    case 428: "Precondition Required"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    case 100..<200: "Informational"
    case 200..<300: "Success"
    case 300..<400: "Redirection"
    case 400..<500: "Client Error"
    default: "Server Error"
    }
  }

  /// Whether an answer with `code` has no body (1xx, 204, 304).
  static func forbidsBody(_ code: Int) -> Bool {
    (100..<200).contains(code) || code == 204 || code == 304
  }
}
