import HTTPServer
import RealmJSON
import RealmModel
import RealmQuery

/// An error answer of the page's API: an HTTP status and a JSON body
/// `{"error": message, "field": property?, "column": query column?, "code": kind?}`.
///
/// Library errors keep their own words (the messages the commands print); their category picks
/// the status. `field` names the property an edit's error is about, so the page shows the
/// message next to it; `column` is the 1-based column of a query error.
struct StudioError: Error, Sendable {
  var status: Int
  var message: String
  var field: String?
  var column: Int?
  var code: String?

  static func badRequest(_ message: String) -> StudioError { StudioError(status: 400, message: message) }
  static func notFound(_ message: String) -> StudioError { StudioError(status: 404, message: message) }
  static func conflict(_ message: String, code: String? = nil) -> StudioError {
    StudioError(status: 409, message: message, code: code)
  }

  /// The answer.
  var response: HTTPResponse {
    var w = JSONWriter(indent: 0, capacity: 256)
    w.beginObject()
    w.member("error", message)
    if let field { w.member("field", field) }
    if let column { w.member("column", column) }
    if let code { w.member("code", code) }
    w.endObject()
    return .json(w.buffer, status: status)
  }

  /// The error answer for any error a handler throws. `className` lets an edit's error name
  /// its property (`field`).
  static func from(_ error: any Error, className: String? = nil) -> StudioError {
    if let e = error as? StudioError { return e }
    if let e = error as? QueryError {
      return StudioError(status: 400, message: e.message, column: e.column, code: "query")
    }
    let message = String(describing: error)
    let status: Int
    var code: String?
    if let categorized = error as? any CategorizedError {
      switch categorized.category {
      case .invalidData, .invalidArgument: status = 422
      case .missingInput: status = 404
      case .permissionDenied: status = 409
      case .cannotCreateOutput: status = 409
      case .busy:
        status = 409
        code = "locked"
      case .cancelled: status = 503
      case .ioFailure, .internalError: status = 500
      }
    } else {
      status = 500
    }
    return StudioError(status: status, message: message, field: className.flatMap { field(in: message, of: $0) }, code: code)
  }

  /// The property an error message names after `Class.` (`'the new object': Person.age: …`,
  /// `Person.dogs[2]: …`) or as a CSV column, nil when it names none.
  static func field(in message: String, of className: String) -> String? {
    // A CSV cell: `'people.csv' row 3: column 'age': …`.
    if let column = message.firstRange(of: "column '") {
      let name = message[column.upperBound...].prefix { $0 != "'" }
      if !name.isEmpty { return String(name) }
    }
    let marker = Array((className + ".").utf8)
    let text = Array(message.utf8)
    guard marker.count < text.count,
      let start = (0...(text.count - marker.count)).first(where: { text[$0..<$0 + marker.count].elementsEqual(marker) })
    else { return nil }
    var name = ""
    for c in String(decoding: text[(start + marker.count)...], as: UTF8.self) {
      if c == "." || c == "[" || c == ":" || c == " " || c == "'" { break }
      name.append(c)
    }
    return name.isEmpty ? nil : name
  }
}
