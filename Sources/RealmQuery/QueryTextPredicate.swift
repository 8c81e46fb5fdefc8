import RealmFormat
import RealmModel
import Synchronization

/// `property TEXT "words"` (Realm's `StringNodeFulltext`): the objects a full-text search of
/// the property finds, through forward links when the path has them (an object matches when
/// one of the objects it reaches is found, whatever the quantifier: Realm ignores it).
///
/// Realm answers from the full-text index alone, so this does too: the keys the file's index
/// gives for the search (``QueryObjectSource/fullTextKeys(ofClass:property:search:)``,
/// ``FullTextIndex``), asked once per run and shared by every object. Without an index to read
/// (no source, or a damaged index) each reached object's words are compared
/// (``FullTextSearch/matches(words:)``), which gives the same objects but where Realm's answer
/// depends on the index's layout.
final class TextPredicate: QueryPredicate {
  let chain: LinkChain
  /// The class whose property is searched (`chain.current`) and the property.
  let targetClass: Int
  let property: Int
  let search: FullTextSearch
  /// The source whose index answered, and its keys.
  private let found = Mutex<Found?>(nil)

  /// The keys a source's index gave (nil: no index, compare words), kept while the source lives.
  private final class Found: @unchecked Sendable {
    weak var source: AnyObject?
    let keys: Set<Int64>?
    init(source: AnyObject, keys: Set<Int64>?) {
      self.source = source
      self.keys = keys
    }
  }

  init(chain: LinkChain, property: Int, search: FullTextSearch) {
    self.chain = chain
    self.targetClass = chain.current
    self.property = property
    self.search = search
  }

  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    let keys = try indexKeys(&ctx)
    if chain.isEmpty { return test(object, keys) }
    for target in try chain.targets(from: object, &ctx) where test(target, keys) { return true }
    return false
  }

  private func test(_ object: QueryObject, _ keys: Set<Int64>?) -> Bool {
    if let keys { return keys.contains(object.key) }
    guard property < object.values.count, case .string(let s) = object.values[property] else {
      return search.matches(words: [])
    }
    return search.matches(words: Set(FullTextTokenizer.words(of: s)))
  }

  /// The keys the source's index gives (computed once per source), nil when it has none.
  func indexKeys(_ ctx: inout QueryContext) throws -> Set<Int64>? {
    guard let source = ctx.source else { return nil }
    if let cached = found.withLock({ $0 }), cached.source === source { return cached.keys }
    let cls = ctx.schema.classes[targetClass]
    let keys = try source.fullTextKeys(
      ofClass: cls.name, property: cls.properties[property].name, search: search
    ).map(Set.init)
    let entry = Found(source: source, keys: keys)
    found.withLock { $0 = entry }
    return keys
  }
}
