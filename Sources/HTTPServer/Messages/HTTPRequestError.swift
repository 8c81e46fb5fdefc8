/// Why a request was refused before it reached the handler: the status the server answers
/// with and a short reason (sent as the answer's text body).
public struct HTTPRequestError: Error, Equatable, Sendable, CustomStringConvertible {
  /// 400, 408, 413, 414, 417, 431, 501 or 505.
  public var status: Int
  /// What was wrong, in a few words ("bare LF in the header", "Content-Length given twice").
  public var reason: String

  /// An error with its status and reason.
  public init(status: Int, reason: String) {
    self.status = status
    self.reason = reason
  }

  /// 400 Bad Request.
  static func badRequest(_ reason: String) -> HTTPRequestError { HTTPRequestError(status: 400, reason: reason) }

  public var description: String { "\(status) \(HTTPStatus.reason(status)): \(reason)" }
}
