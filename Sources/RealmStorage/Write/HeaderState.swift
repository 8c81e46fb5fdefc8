import RealmFormat

/// The 24-byte file header as the writer needs it (§1.1), plus the streaming footer (§1.2).
package struct HeaderState: Sendable, Equatable {
  /// `top_ref[0]`, `top_ref[1]` as stored.
  var topRefs: [UInt64]
  /// `file_format[0]`, `file_format[1]` as stored.
  var formats: [UInt8]
  /// Byte 23; bit 0 is the select bit.
  var flags: UInt8
  /// The top ref from the footer when the file is in streaming form.
  var footerTop: UInt64?

  static let streamingMarker: UInt64 = 0xFFFF_FFFF_FFFF_FFFF
  static let footerCookie: UInt64 = 0x3034_1252_37E5_26C8
  static let mnemonic: UInt32 = 0x4244_2D54  // "T-DB" little-endian

  /// The select bit.
  var select: Int { Int(flags & 1) }
  /// True in streaming form: select bit 0 and `top_ref[0] == ~0` (§1.2).
  var isStreaming: Bool { flags & 1 == 0 && topRefs[0] == HeaderState.streamingMarker }
  /// The live top ref (0 = empty realm).
  package var currentTop: UInt64 { isStreaming ? (footerTop ?? 0) : topRefs[select] }
  /// The live file format version.
  package var currentFormat: UInt8 { isStreaming ? formats[0] : formats[select] }

  /// Decodes the header of `reader` (the whole file), validating it as Realm does (§1.3).
  package init(reader: ByteReader) throws(FormatError) {
    let size = reader.count
    guard size >= 24 else {
      throw FormatError(.notRealmFile, "the file has \(size) bytes, fewer than the 24-byte header")
    }
    guard try reader.uint32(at: 16) == HeaderState.mnemonic else {
      throw FormatError(
        .notRealmFile, offset: 16, "the header does not start with the mnemonic 'T-DB'")
    }
    guard size % 8 == 0 else {
      throw FormatError.corrupt("the file size \(size) is not a multiple of 8")
    }
    topRefs = [try reader.uint64(at: 0), try reader.uint64(at: 8)]
    formats = [try reader.uint8(at: 20), try reader.uint8(at: 21)]
    flags = try reader.uint8(at: 23)
    footerTop = nil
    if isStreaming {
      guard size >= 40, try reader.uint64(at: size - 8) == HeaderState.footerCookie else {
        throw FormatError.corrupt(
          "the header announces a streaming footer but the file ends without one")
      }
      footerTop = try reader.uint64(at: size - 16)
    }
    let top = currentTop
    guard top & 7 == 0, top < UInt64(size) else {
      throw FormatError.corrupt(
        "the top ref \(top) is not 8-aligned inside the file of \(size) bytes", at: 0)
    }
  }
}
