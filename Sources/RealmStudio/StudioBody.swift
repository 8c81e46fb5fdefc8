import HTTPServer
import RealmJSON

/// Reading the JSON body of a request and the parameters of its query.
enum StudioBody {
  /// The body as a JSON object (exact 64-bit integers kept).
  static func object(_ request: HTTPRequest) throws(StudioError) -> JSONValue {
    let value: JSONValue
    do {
      value = try JSONParser.parse(request.body)
    } catch {
      throw StudioError.badRequest("the body is not JSON: \(error)")
    }
    guard case .object = value else { throw StudioError.badRequest("the body is not a JSON object") }
    return value
  }

  /// An integer parameter of the query (`default` when absent), at least `minimum`.
  static func int(_ request: HTTPRequest, _ name: String, default value: Int, minimum: Int = 0) throws(StudioError) -> Int {
    guard let text = request.queryValue(name) else { return value }
    guard let n = Int(text), n >= minimum else { throw StudioError.badRequest("'\(name)' must be an integer of at least \(minimum)") }
    return n
  }

  /// An object key parameter of the query, nil when absent.
  static func key(_ request: HTTPRequest, _ name: String) throws(StudioError) -> Int64? {
    guard let text = request.queryValue(name) else { return nil }
    guard let n = Int64(text) else { throw StudioError.badRequest("'\(name)' must be an object key (an integer)") }
    return n
  }

  /// A non-empty text parameter, nil when absent or blank.
  static func text(_ request: HTTPRequest, _ name: String) -> String? {
    guard let text = request.queryValue(name), text.contains(where: { !$0.isWhitespace }) else { return nil }
    return text
  }
}
