@testable import RealmFormat

/// A file image of 24 zero bytes, then one node with `flags`, `count` and `payload` at 24,
/// read as an ``ArrayNode``: for the corner cases the fixtures do not reach.
func handBuiltNode(flags: UInt8, count: Int, payload: [UInt8]) throws -> ArrayNode {
  var bytes = [UInt8](repeating: 0, count: 24)
  bytes += [0x41, 0x41, 0x41, 0x41, flags, UInt8(count >> 16), UInt8((count >> 8) & 255), UInt8(count & 255)]
  bytes += payload
  while bytes.count % 8 != 0 { bytes.append(0) }
  return try ArrayNode(ByteReader(bytes: bytes), Ref(24))
}
