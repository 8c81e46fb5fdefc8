import RealmTestSupport
import Testing
@testable import RealmFormat

@Suite struct ArrayNodeTests {
  @Test func readsPackedWidths() throws {
    // width 4 (code 3): elements 1, 15, 7
    let n = try handBuiltNode(flags: 3, count: 3, payload: [0xF1, 0x07])
    try expectEqual(n.get(0), 1)
    try expectEqual(n.get(1), 15)
    try expectEqual(n.get(2), 7)
    // width 8 signed
    let s = try handBuiltNode(flags: 4, count: 2, payload: [0xFF, 0x7F])
    try expectEqual(s.get(0), -1)
    try expectEqual(s.get(1), 127)
    try expectEqual(s.getUnsigned(0), 255)
  }

  @Test func rejectsPayloadPastEnd() {
    var bytes = [UInt8](repeating: 0, count: 24)
    bytes += [0x41, 0x41, 0x41, 0x41, 7, 0, 0, 100]  // 100 x 64 bit, no payload
    #expect(throws: FormatError(.corrupt)) { try ArrayNode(ByteReader(bytes: bytes), Ref(24)) }
  }

  @Test func rejectsIndexOutOfRange() throws {
    let n = try handBuiltNode(flags: 4, count: 2, payload: [1, 2])
    #expect(throws: FormatError(.corrupt)) { try n.get(2) }
    #expect(throws: FormatError(.corrupt)) { try n.get(-1) }
  }

  @Test func rejectsUnalignedRef() {
    let bytes = [UInt8](repeating: 0, count: 64)
    #expect(throws: FormatError(.corrupt)) { try ArrayNode(ByteReader(bytes: bytes), Ref(27)) }
  }
}

@Suite struct ArrayNodeBlobTests {
  @Test func integerReadsOfABlobStayInsideItsPayload() throws {
    // wtype ignore (2 << 3), width code 7 (64 bits), 3 bytes of payload.
    var bytes = [UInt8](repeating: 0, count: 24)
    bytes += [0x41, 0x41, 0x41, 0x41, (2 << 3) | 7, 0, 0, 3, 1, 2, 3, 0, 0, 0, 0, 0]
    let node = try ArrayNode(ByteReader(bytes: bytes), Ref(24))
    #expect(throws: FormatError(.corrupt)) { try node.get(2) }
  }
}
