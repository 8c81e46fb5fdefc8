// Test stub of the parts of RealmSwift that generated models use, to typecheck them with
// swiftc: the base classes with the members every Realm object already has (a model that
// redeclares one fails, as it would against RealmSwift), @Persisted and the collection and
// value types.
import Foundation

open class RealmObjectBase {
  public required init() {}
  open class func _realmObjectName() -> String? { nil }
  open class func propertiesMapping() -> [String: String] { [:] }
  open var description: String { "" }
  open var debugDescription: String { "" }
  open var hash: Int { 0 }
  public final var realm: AnyObject? { nil }
  public final var objectSchema: AnyObject? { nil }
  public final var isInvalidated: Bool { false }
  public final var isFrozen: Bool { false }
  public final func freeze() -> Self { self }
  public final func thaw() -> Self? { self }
  public final func observe() {}
}

open class Object: RealmObjectBase {}
open class EmbeddedObject: RealmObjectBase {}

@propertyWrapper public struct Persisted<Value> {
  public init() {}
  public init(primaryKey: Bool) {}
  public init(indexed: Bool) {}
  public var wrappedValue: Value {
    get { fatalError("stub") }
    set {}
  }
}

public final class List<Element> {}
public final class MutableSet<Element> {}
public final class Map<Key, Value> {}
public struct AnyRealmValue {}
public struct ObjectId {}
public struct Decimal128 {}
