import RealmFormat
import RealmModel
import RealmExport
import RealmStorage

/// How two values of the same property compare across two files, and where they differ.
///
/// Embedded objects compare property by property inside their parent (their keys are not part
/// of their identity); links compare by the target's primary key when its class has one,
/// else by the target's key. Floating-point values compare as the dump writes them: `-0.0`
/// differs from `0.0`, and NaN equals NaN.
struct DiffValues {
  /// Resolves links of the old file.
  let oldLinks: LinkResolver
  /// Resolves links of the new file.
  let newLinks: LinkResolver
  /// Whether keys of a class name the same objects in both files.
  let alignment: KeyAlignment

  init(oldLinks: LinkResolver, newLinks: LinkResolver) {
    self.oldLinks = oldLinks
    self.newLinks = newLinks
    alignment = KeyAlignment(old: oldLinks, new: newLinks)
  }

  /// True when `a` (old file) and `b` (new file) hold the same value.
  func equal(_ a: RealmValue, _ b: RealmValue) throws -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): return Self.same(x, y)
    case (.float(let x), .float(let y)): return Self.same(Double(x), Double(y))
    case (.link(let x), .link(let y)):
      guard x.className == y.className else { return false }
      // The same key is the same object when the target class has no primary key, or when
      // its keys name the same primary keys in both files (the usual case: objects keep
      // their keys from one version of a file to the next).
      if x.key == y.key, try alignment.aligned(x.className) { return true }
      guard let p = try oldLinks.primaryKey(of: x), let q = try newLinks.primaryKey(of: y) else { return x.key == y.key }
      return try equal(p, q)
    case (.embedded(let x), .embedded(let y)):
      guard x.className == y.className else { return false }
      return try changedPaths(x, y, prefix: "").isEmpty
    case (.list(let x), .list(let y)), (.set(let x), .set(let y)):
      guard x.count == y.count else { return false }
      for (p, q) in zip(x, y) where try !equal(p, q) { return false }
      return true
    case (.dictionary(let x), .dictionary(let y)):
      guard x.count == y.count else { return false }
      for (p, q) in zip(x, y) where try p.key != q.key || !equal(p.value, q.value) { return false }
      return true
    default:
      return a == b
    }
  }

  /// The property paths where two embedded objects differ (`address.city`), recursing into
  /// single embedded objects; only properties both objects have are compared.
  func changedPaths(_ a: EmbeddedObject, _ b: EmbeddedObject, prefix: String) throws -> [PropertyChange] {
    var out: [PropertyChange] = []
    for p in a.properties {
      guard let q = b.properties.first(where: { $0.name == p.name }) else { continue }
      out += try changes(p.value, q.value, path: prefix + p.name)
    }
    return out
  }

  /// The changes between two values of the property at `path`: none, the value itself, or
  /// the paths inside an embedded object present on both sides.
  func changes(_ a: RealmValue, _ b: RealmValue, path: String) throws -> [PropertyChange] {
    if case .embedded(let x) = a, case .embedded(let y) = b, x.className == y.className {
      return try changedPaths(x, y, prefix: path + ".")
    }
    return try equal(a, b) ? [] : [PropertyChange(path: path, old: a, new: b)]
  }

  private static func same(_ x: Double, _ y: Double) -> Bool {
    (x.isNaN && y.isNaN) || (x == y && x.sign == y.sign)
  }
}

/// One property of a changed object: its path (`age`, `address.city`) and both values.
public struct PropertyChange: Sendable, Equatable {
  /// The property, or a path into embedded objects (`address.city`).
  public var path: String
  /// The value in the old file.
  public var old: RealmValue
  /// The value in the new file.
  public var new: RealmValue
}

/// Whether the keys of a class with a primary key name the same objects (the same primary key
/// values) in both files: then links to it compare by key, without looking their targets up.
/// Found once per class by walking both tables side by side in key order (flat memory).
final class KeyAlignment {
  let old: LinkResolver
  let new: LinkResolver
  private var known: [String: Bool] = [:]

  init(old: LinkResolver, new: LinkResolver) {
    self.old = old
    self.new = new
  }

  /// True when every key present in both files holds the same primary key value (always true
  /// for classes without a primary key: the key is the identity).
  func aligned(_ className: String) throws -> Bool {
    if let answer = known[className] { return answer }
    let answer = try walk(className)
    known[className] = answer
    return answer
  }

  private func walk(_ className: String) throws -> Bool {
    guard let (oldTable, i) = old.primaryKeyColumn(className), let (newTable, j) = new.primaryKeyColumn(className) else {
      return true
    }
    let a = try RealmInput.reading(old.path) { try ObjectCursor(group: old.group, table: oldTable) }
    let b = try RealmInput.reading(new.path) { try ObjectCursor(group: new.group, table: newTable) }
    while let x = try RealmInput.reading(old.path, { try a.current() }), let y = try RealmInput.reading(new.path, { try b.current() }) {
      if x.key < y.key {
        a.advance()
      } else if y.key < x.key {
        b.advance()
      } else {
        guard i < x.values.count, j < y.values.count, x.values[i] == y.values[j] else { return false }
        a.advance()
        b.advance()
      }
    }
    return true
  }
}
