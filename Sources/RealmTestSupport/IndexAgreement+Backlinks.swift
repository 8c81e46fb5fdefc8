import RealmModel

extension IndexAgreement.Plan {
  /// Backlinks: Realm answers `@links.C.p.@count` (the links of property `p` of class `C` to an
  /// object) and `@links.@count` (every link to it, from links, lists, sets, dictionaries,
  /// `mixed` values and the collections nested in them, and embedded objects) from the
  /// backlink columns a writer maintains; the counts must be those of the forward links in
  /// Realm's dump, for a spread of the distinct counts (the lowest and the highest, and two
  /// between from 4 samples on). `objects`: every top-level object by class.
  mutating func backlinks(_ schema: Schema, _ objects: [String: [(key: Int64, values: [RealmValue])]]) {
    var perProperty: [String: [String: [Int64: Int]]] = [:]  // target class → "C.p" → key → count
    var total: [String: [Int64: Int]] = [:]
    func walk(_ v: RealmValue, _ property: String?) {
      switch v {
      case .link(let l):
        total[l.className, default: [:]][l.key, default: 0] += 1
        if let property { perProperty[l.className, default: [:]][property, default: [:]][l.key, default: 0] += 1 }
      case .list(let items), .set(let items): for item in items { walk(item, property) }
      case .dictionary(let entries): for e in entries { walk(e.value, property) }
      case .embedded(let e): for p in e.properties { walk(p.value, nil) }
      default: break
      }
    }
    for cls in schema.classes where !cls.isEmbedded {
      for object in objects[cls.name] ?? [] {
        for (i, p) in cls.properties.enumerated() {
          // Only typed link properties have a keypath; links held by a `mixed` count in the total.
          walk(object.values[i], p.type == .object ? "\(cls.name).\(p.name)" : nil)
        }
      }
    }
    for target in schema.classes where !target.isEmbedded {
      let keys = (objects[target.name] ?? []).map(\.key)
      guard !keys.isEmpty else { continue }
      var paths: [(String, [Int64: Int])] = (perProperty[target.name] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
      // Every link property to this class, even when nothing links through it.
      for origin in schema.classes where !origin.isEmbedded {
        for p in origin.properties where p.type == .object && p.objectType == target.name {
          let name = "\(origin.name).\(p.name)"
          if !paths.contains(where: { $0.0 == name }) { paths.append((name, [:])) }
        }
      }
      var tried = 0
      for (path, counts) in paths + [("", total[target.name] ?? [:])] {
        let keypath = path.isEmpty ? "@links.@count" : "@links.\(Self.name(path)).@count"
        let distinct = Array(Set(keys.map { counts[$0] ?? 0 })).sorted()
        for n in Self.spread(distinct, min(4, samples)) {
          let holders = keys.filter { (counts[$0] ?? 0) == n }
          add(target.name, "\(keypath) == \(n)", Expectation(label: "\(target.name) \(keypath) == \(n)", keys: holders))
          tried += 1
        }
      }
      checked.append("\(target.name) backlinks: \(tried) counts")
    }
  }
}
