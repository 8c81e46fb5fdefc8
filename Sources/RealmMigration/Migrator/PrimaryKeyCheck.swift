import RealmModel

/// Detects duplicate primary-key values after a migration (Realm's error plus what Realm does
/// not say: how many, and the first duplicate value with its keys).
struct PrimaryKeyCheck {
  let className: String
  let property: String?
  let index: Int?
  var firstKey: [PrimaryKeyValue: Int64] = [:]
  var duplicates = 0
  var example: (RealmValue, Int64, Int64)?

  init(_ c: ClassProgram) {
    className = c.finalSchema.name
    if c.checkPrimaryKey, let pk = c.finalSchema.primaryKey {
      property = pk
      index = c.finalSchema.properties.firstIndex { $0.name == pk }
    } else {
      property = nil
      index = nil
    }
  }

  mutating func record(key: Int64, values: [RealmValue]) throws {
    guard let index, index < values.count else { return }
    let v = values[index]
    let k = PrimaryKeyValue(v)
    if let first = firstKey[k] {
      duplicates += 1
      if example == nil { example = (v, first, key) }
    } else {
      firstKey[k] = key
    }
  }

  func finish() throws {
    guard let property, let example else { return }
    throw MigrationError(
      .constraintViolated,
      "Primary key property '\(className).\(property)' has duplicate values after migration. "
        + "\(duplicates) object(s) repeat an earlier value; the first is \(ValueText.describe(example.0)) "
        + "(objects with keys \(example.1) and \(example.2)).")
  }
}

/// A primary-key value in hashable form (primary keys are int, string, ObjectId or UUID).
package enum PrimaryKeyValue: Hashable {
  case null
  case int(Int64)
  case string(String)
  case objectId(ObjectId)
  case uuid(RealmUUID)
  case other(String)

  package init(_ v: RealmValue) {
    switch v {
    case .null: self = .null
    case .int(let i): self = .int(i)
    case .string(let s): self = .string(s)
    case .objectId(let o): self = .objectId(o)
    case .uuid(let u): self = .uuid(u)
    default: self = .other(ValueText.describe(v))
    }
  }
}
