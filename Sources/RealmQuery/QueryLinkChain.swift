import RealmModel

/// Which elements of a collection of links a link step follows.
enum LinkIndex: Sendable, Equatable {
  /// `[n]`, `[FIRST]` (0) or `[LAST]` (-1).
  case position(Int)
  /// `['key']` or `.key` of a dictionary.
  case key(String)
}

/// One step of a key path through links: forward through a link property (single, list,
/// set or dictionary of links), or backward (`@links.Class.property`) to the objects that
/// link to the current one.
enum LinkStep: Sendable {
  case forward(property: Int, target: Int, collection: CollectionKind, index: LinkIndex?)
  case backward(origin: Int, property: Int)

  /// True for a single link (one object at most).
  var isUnary: Bool {
    if case .forward(_, _, .single, _) = self { return true }
    return false
  }
}

/// A chain of link steps from the queried class (Realm's `LinkMap`).
struct LinkChain: Sendable {
  /// The class the chain starts from.
  var base: Int
  var steps: [LinkStep] = []
  /// The class each step arrives at (`classes[0]` is `base`).
  var classes: [Int]

  init(base: Int) {
    self.base = base
    classes = [base]
  }

  var isEmpty: Bool { steps.isEmpty }
  var current: Int { classes[classes.count - 1] }
  /// True when every step is a single link: the chain reaches one object at most.
  var onlyUnary: Bool { steps.allSatisfy(\.isUnary) }

  mutating func append(_ step: LinkStep, arrivingAt target: Int) {
    steps.append(step)
    classes.append(target)
  }

  mutating func removeLast() {
    steps.removeLast()
    classes.removeLast()
  }

  /// The objects at the end of the chain, in link order (null and missing links skipped).
  func targets(from object: QueryObject, _ ctx: inout QueryContext) throws -> [QueryObject] {
    var out: [QueryObject] = []
    try follow(object, step: 0, &ctx, into: &out)
    return out
  }

  /// The first object at the end of the chain (for chains of single links).
  func firstTarget(from object: QueryObject, _ ctx: inout QueryContext) throws -> QueryObject? {
    try targets(from: object, &ctx).first
  }

  private func follow(_ object: QueryObject, step: Int, _ ctx: inout QueryContext, into out: inout [QueryObject]) throws {
    if step == steps.count {
      out.append(object)
      return
    }
    switch steps[step] {
    case .forward(let property, let target, let collection, let index):
      let value = property < object.values.count ? object.values[property] : .null
      switch collection {
      case .single:
        if let t = try Self.resolve(value, target, &ctx) { try follow(t, step: step + 1, &ctx, into: &out) }
      case .list, .set:
        let items: [RealmValue]
        switch value {
        case .list(let l), .set(let l): items = l
        default: items = []
        }
        var selected = items[...]
        if case .position(let p) = index {
          if items.isEmpty { selected = [] } else if p < 0 { selected = items[(items.count - 1)...] } else if p < items.count {
            selected = items[p...p]
          } else {
            selected = []
          }
        }
        for item in selected {
          if let t = try Self.resolve(item, target, &ctx) { try follow(t, step: step + 1, &ctx, into: &out) }
        }
      case .dictionary:
        guard case .dictionary(let entries) = value else { return }
        if case .key(let k) = index {
          if let e = entries.first(where: { $0.key == k }), let t = try Self.resolve(e.value, target, &ctx) {
            try follow(t, step: step + 1, &ctx, into: &out)
          }
        } else {
          for e in entries {
            if let t = try Self.resolve(e.value, target, &ctx) { try follow(t, step: step + 1, &ctx, into: &out) }
          }
        }
      }
    case .backward(let origin, let property):
      let keys = try ctx.backlinks(from: origin, property: property, to: object.classIndex, key: object.key)
      for k in keys {
        if let o = try ctx.object(classIndex: origin, key: k) { try follow(o, step: step + 1, &ctx, into: &out) }
      }
    }
  }

  /// The object a link value points to: embedded objects come inline, others are read.
  static func resolve(_ value: RealmValue, _ target: Int, _ ctx: inout QueryContext) throws -> QueryObject? {
    switch value {
    case .link(let l):
      return try ctx.object(classIndex: target, key: l.key)
    case .embedded(let e):
      return QueryObject(classIndex: target, key: e.key, values: e.properties.map(\.value))
    default:
      return nil
    }
  }
}
