/// Members of an object written in one call: the name, then the value, or `null` for nil.
extension JSONWriter {
  /// A member with a string value (`null` when nil).
  public mutating func member(_ name: String, _ value: String?) {
    key(name)
    if let value { self.value(value) } else { nullValue() }
  }

  /// A member with an integer value (`null` when nil).
  public mutating func member(_ name: String, _ value: Int64?) {
    key(name)
    if let value { self.value(value) } else { nullValue() }
  }

  /// A member with an integer value (`null` when nil).
  public mutating func member(_ name: String, _ value: Int?) {
    member(name, value.map { Int64($0) })
  }

  /// A member with a boolean value (`null` when nil).
  public mutating func member(_ name: String, _ value: Bool?) {
    key(name)
    if let value { self.value(value) } else { nullValue() }
  }

  /// A member with a finite double value, as its shortest round-trip decimal.
  public mutating func member(_ name: String, _ value: Double) {
    key(name)
    self.value(value)
  }

  /// A member whose value is a whole parsed document.
  public mutating func member(_ name: String, _ value: JSONValue) {
    key(name)
    self.value(value)
  }

  /// A member whose value is an array of objects, one per element of `elements`: `body`
  /// writes the members of each.
  public mutating func member<Elements: Sequence>(
    _ name: String, objects elements: Elements, _ body: (inout JSONWriter, Elements.Element) -> Void
  ) {
    key(name)
    beginArray()
    for element in elements {
      beginObject()
      body(&self, element)
      endObject()
    }
    endArray()
  }
}
