/// The 24-byte file header and, for compacted copies, the 16-byte streaming footer (§1.1, §1.2).
///
/// Corresponds to `realm::SlabAlloc::Header` and `StreamingFooter` in realm-core. Parsing
/// validates what realm-core's `validate_header` validates (§1.3): size, mnemonic, footer
/// cookie, and that the chosen top ref is aligned and inside the file.
public struct FileHeader: Sendable, Hashable {
  /// The two top refs of the header, slot 0 and slot 1, as stored.
  public var topRefs: [UInt64]
  /// The file format bytes belonging to the two top refs.
  public var fileFormats: [Int]
  /// The flags byte (offset 23); bit 0 is the select bit.
  public var flags: UInt8
  /// True when the file is in streaming form (written by compaction or `writeCopy`).
  public var isStreaming: Bool
  /// The top ref stored in the streaming footer, when the file is in streaming form.
  public var footerTopRef: UInt64?
  /// The ref of the live top array (0 for an empty Realm that has never been committed).
  public var topRef: Ref
  /// The file format version of the live snapshot.
  public var fileFormat: Int

  /// The select bit: which header slot holds the live snapshot.
  public var selectBit: Int { Int(flags & 1) }

  /// Size of the header in bytes.
  public static let size = 24
  /// Size of the streaming footer in bytes.
  public static let footerSize = 16

  /// True when the bytes at offset 16 are the `T-DB` mnemonic.
  public static func hasMnemonic(_ reader: ByteReader) -> Bool {
    guard reader.count >= size else { return false }
    for (i, b) in FormatConstants.mnemonic.enumerated() where (try? reader.uint8(at: 16 + i)) != b {
      return false
    }
    return true
  }

  /// Parses and validates the header of `reader`.
  ///
  /// - Throws: ``FormatError`` with code `notRealmFile` (no mnemonic) or `corrupt` (size not a
  ///   multiple of 8, bad footer, top ref misaligned or outside the file).
  public init(reader: ByteReader) throws(FormatError) {
    let size = reader.count
    guard size >= FileHeader.size else {
      throw FormatError(.notRealmFile, "the file has \(size) bytes, fewer than the 24-byte Realm header")
    }
    guard FileHeader.hasMnemonic(reader) else {
      throw FormatError(.notRealmFile, offset: 16, "the header does not start with the Realm mnemonic 'T-DB'")
    }
    guard size % 8 == 0 else {
      throw FormatError.corrupt(
        "the file size \(size) is not a multiple of 8: it was damaged in transfer, most likely by a line-ending conversion or a text-mode transfer (git's autocrlf, FTP in ASCII mode), which changes the bytes of binary files")
    }
    let top0 = try reader.uint64(at: 0)
    let top1 = try reader.uint64(at: 8)
    let formats = [Int(try reader.uint8(at: 20)), Int(try reader.uint8(at: 21))]
    let flags = try reader.uint8(at: 23)
    topRefs = [top0, top1]
    fileFormats = formats
    self.flags = flags
    let select = Int(flags & 1)
    // §1.2: streaming iff select bit 0 and top_ref[0] == ~0.
    isStreaming = select == 0 && top0 == UInt64.max
    let chosen: UInt64
    if isStreaming {
      guard size >= FileHeader.size + FileHeader.footerSize else {
        throw FormatError.corrupt("the file is in streaming form but too small (\(size) bytes) for the footer")
      }
      let footerTop = try reader.uint64(at: size - 16)
      let cookie = try reader.uint64(at: size - 8)
      guard cookie == FormatConstants.footerCookie else {
        throw FormatError.corrupt(
          "the streaming footer cookie is 0x\(String(cookie, radix: 16)), expected 0x\(String(FormatConstants.footerCookie, radix: 16))",
          at: size - 8)
      }
      footerTopRef = footerTop
      chosen = footerTop
    } else {
      footerTopRef = nil
      chosen = select == 0 ? top0 : top1
    }
    fileFormat = formats[select]
    guard chosen & 7 == 0, chosen < UInt64(size), let top = Int(exactly: chosen) else {
      throw FormatError.corrupt(
        "the top ref 0x\(String(chosen, radix: 16)) is misaligned or outside the file (size \(size))", at: 0)
    }
    guard top == 0 || top >= FileHeader.size else {
      throw FormatError.corrupt("the top ref 0x\(String(chosen, radix: 16)) points into the header", at: 0)
    }
    topRef = Ref(top)
  }
}
