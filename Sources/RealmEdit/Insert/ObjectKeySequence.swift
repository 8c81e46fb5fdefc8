import RealmFormat

/// How Realm gives object keys (Realm Core's `Table::allocate_sequence_number` and
/// `allocate_object_id_squeezed`): each table has a sequence number in its top array; a class
/// with a primary key takes the number itself as key, a class without one its "squeezed" form
/// (the low 8 bits kept, the rest shifted up 8 bits, so keys come in runs of 256).
enum ObjectKeySequence {
  /// The key of sequence number `n`.
  static func key(for n: Int64, squeezed: Bool) -> Int64 {
    squeezed ? (n & 0xFF) | ((n & ~0xFF) << 8) : n
  }

  /// The smallest sequence number whose key is above `key`.
  static func after(key: Int64, squeezed: Bool) -> Int64 {
    guard squeezed else { return key + 1 }
    let high = key >> 16
    if (key >> 8) & 0xFF == 0 { return ((high << 8) | (key & 0xFF)) + 1 }
    return (high + 1) << 8
  }

  /// The sequence number stored in the table's top array (slot 9), nil when the table has none
  /// (the old layout of formats 2 to 9).
  static func stored(in table: Table, group: Group) throws -> Int64? {
    guard !table.isLegacyLayout else { return nil }
    let top = try ArrayNode(group.reader, table.ref)
    guard top.count > 9 else { return nil }
    let raw = try top.get(9)
    guard raw & 1 == 1 else { return nil }
    return raw >> 1
  }
}
