/// Realm Core's `DataType`: the type tag of a value stored in a Mixed leaf, a Mixed set or a
/// dictionary's values (§6.10). The one table of these numbers, for the reader and the writer.
enum MixedDataType: Int64 {
  case int = 0, bool = 1, string = 2, binary = 4, mixed = 6, timestamp = 8, float = 9
  case double = 10, decimal = 11, link = 12, objectId = 15, typedLink = 16, uuid = 17
  case list = 19, set = 20, dictionary = 21
}
