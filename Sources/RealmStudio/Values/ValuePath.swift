import RealmJSON
import RealmModel

/// A place inside a property's value: list and set positions, dictionary keys and embedded
/// properties, one step each (`["tags", 2]`, `["address", "street"]`, `["attrs", "k", 0]` for
/// a list inside a mixed dictionary). The page sends it as a JSON array.
struct ValuePath: Sendable, Equatable {
  /// One step.
  enum Step: Sendable, Equatable {
    case index(Int)
    case name(String)
  }

  var steps: [Step]

  /// A path of `steps`.
  init(steps: [Step]) { self.steps = steps }

  /// Reads the JSON array of a query parameter: strings and non-negative integers.
  init(json text: String) throws(StudioError) {
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(text)
    } catch {
      throw StudioError.badRequest("the value path is not JSON: \(error)")
    }
    guard case .array(let items) = parsed else { throw StudioError.badRequest("the value path is not a JSON array") }
    steps = []
    for item in items {
      switch item {
      case .int(let i) where i >= 0 && i <= Int64(Int32.max): steps.append(.index(Int(i)))
      case .string(let s): steps.append(.name(s))
      default: throw StudioError.badRequest("a step of the value path is neither a name nor a position")
      }
    }
  }

  /// The value at this path inside `value`, or nil when there is none.
  func resolve(in value: RealmValue) -> RealmValue? {
    var current = value
    for step in steps {
      switch (current, step) {
      case (.list(let items), .index(let i)), (.set(let items), .index(let i)):
        guard i < items.count else { return nil }
        current = items[i]
      case (.dictionary(let entries), .name(let k)):
        guard let e = entries.first(where: { $0.key == k }) else { return nil }
        current = e.value
      case (.embedded(let object), .name(let name)):
        guard let p = object.properties.first(where: { $0.name == name }) else { return nil }
        current = p.value
      default:
        return nil
      }
    }
    return current
  }
}
