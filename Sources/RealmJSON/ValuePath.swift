/// Where a value sits in a dump line (`Person.dogs[2]`, `Doc.tags.home`), kept in parts and
/// turned into text only when an error needs it, so decoding builds no strings per value.
struct ValuePath {
  private let prefix: String
  private let memberName: String?
  private let elementIndex: Int?
  private let dictionaryKey: String?

  /// A path starting at `root` (a class name).
  init(root: String) { self.init(prefix: root, member: nil, index: nil, key: nil) }

  private init(prefix: String, member: String?, index: Int?, key: String?) {
    self.prefix = prefix
    memberName = member
    elementIndex = index
    dictionaryKey = key
  }

  /// The path as text.
  var text: String {
    var s = prefix
    if let m = memberName { s += s.isEmpty ? m : "." + m }
    if let i = elementIndex { s += "[\(i)]" }
    if let k = dictionaryKey { s += "." + k }
    return s
  }

  private var isBare: Bool { memberName == nil && elementIndex == nil && dictionaryKey == nil }
  private var hasElement: Bool { elementIndex != nil || dictionaryKey != nil }

  /// The path of a property of the object at this path.
  func member(_ name: String) -> ValuePath {
    isBare
      ? ValuePath(prefix: prefix, member: name, index: nil, key: nil)
      : ValuePath(prefix: text, member: name, index: nil, key: nil)
  }

  /// The path of a list or set element.
  func index(_ i: Int) -> ValuePath {
    hasElement
      ? ValuePath(prefix: text, member: nil, index: i, key: nil)
      : ValuePath(prefix: prefix, member: memberName, index: i, key: nil)
  }

  /// The path of a dictionary value.
  func key(_ k: String) -> ValuePath {
    hasElement
      ? ValuePath(prefix: text, member: nil, index: nil, key: k)
      : ValuePath(prefix: prefix, member: memberName, index: nil, key: k)
  }
}
