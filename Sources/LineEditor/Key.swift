/// A key press, decoded from the bytes a terminal sends.
public enum Key: Sendable, Hashable {
  /// Text to insert (one Unicode scalar, or several for a paste).
  case text(String)
  /// Return or Enter (Ctrl-M, Ctrl-J).
  case enter
  /// Tab (Ctrl-I).
  case tab
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// The Delete key (forward delete).
  case delete
  /// Escape on its own.
  case escape
  /// Arrow keys.
  case up, down, left, right
  /// Home and End.
  case home, end
  /// Ctrl-Left / Alt-B and Ctrl-Right / Alt-F.
  case wordLeft, wordRight
  /// Ctrl and a letter (`ctrl("a")`), for the letters with no key of their own.
  case ctrl(Character)
  /// Alt (Meta) and a character, sent as Escape then the character (`alt("d")`).
  case alt(Character)
  /// Alt-Backspace.
  case altBackspace
  /// A sequence this editor does not use (ignored).
  case unknown
}

/// Turns the bytes read from a terminal into ``Key``s, a byte at a time.
///
/// Understands UTF-8 text (invalid bytes become U+FFFD), control characters, and the escape
/// sequences of xterm-compatible terminals: CSI (`ESC [ … final`) with `~` codes and
/// modifiers, SS3 (`ESC O A`), and Alt as an Escape prefix. A lone Escape is ambiguous until
/// the next byte or a pause: the reader calls ``flush()`` when no byte follows shortly.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether bytes are waiting for the rest of a sequence (an Escape or a UTF-8 character).
  public var hasPending: Bool { !pending.isEmpty }

  /// Decodes every complete key in `bytes` (what is incomplete waits for more).
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
    var keys: [Key] = []
    for byte in bytes {
      pending.append(byte)
      if let key = decodePending() {
        keys.append(key)
        pending.removeAll(keepingCapacity: true)
      }
    }
    return keys
  }

  /// Ends what is pending after a pause: a lone Escape is the Escape key, a cut-off sequence
  /// or character is dropped.
  public mutating func flush() -> [Key] {
    defer { pending.removeAll() }
    if pending == [0x1B] { return [.escape] }
    if pending.count > 1 && pending[0] == 0x1B && pending[1] == 0x1B { return [.escape] }
    return pending.isEmpty || pending[0] == 0x1B ? [] : [.text("\u{FFFD}")]
  }

  /// The key `pending` spells, or nil when more bytes are needed.
  private func decodePending() -> Key? {
    let first = pending[0]
    switch first {
    case 0x1B: return decodeEscape()
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case 0x7F, 0x08: return .backspace
    case 0x00: return .unknown
    case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(first + 0x60)))
    case 0x1C...0x1F: return .unknown
    case 0x20..<0x80: return .text(String(Unicode.Scalar(first)))
    default: return decodeUTF8()
    }
  }

  private func decodeUTF8() -> Key? {
    let first = pending[0]
    let length: Int
    switch first {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .text("\u{FFFD}")
    }
    if pending.count > 1 && pending.last! & 0xC0 != 0x80 {
      // A character cut short by a new one: the rest is dropped (rare; a paste from a
      // broken source).
      return .text("\u{FFFD}")
    }
    guard pending.count == length else { return nil }
    return .text(String(decoding: pending, as: UTF8.self))
  }

  private func decodeEscape() -> Key? {
    guard pending.count >= 2 else { return nil }
    let second = pending[1]
    switch second {
    case UInt8(ascii: "["): return decodeCSI()
    case UInt8(ascii: "O"):
      guard pending.count >= 3 else { return nil }
      return finalKey(pending[2], parameters: [])
    case 0x7F, 0x08: return .altBackspace
    case 0x1B: return .escape
    case 0x20..<0x7F:
      let c = Character(Unicode.Scalar(second))
      switch c {
      case "b", "B": return .wordLeft
      case "f", "F": return .wordRight
      default: return .alt(c)
      }
    default: return .unknown
    }
  }

  /// `ESC [ parameters final`: parameters and intermediates are 0x20-0x3F, the final byte
  /// 0x40-0x7E.
  private func decodeCSI() -> Key? {
    guard pending.count >= 3 else { return nil }
    let last = pending[pending.count - 1]
    if (0x20...0x3F).contains(last) {
      // Sequences are short; a runaway one is dropped rather than buffered forever.
      return pending.count > 32 ? .unknown : nil
    }
    guard (0x40...0x7E).contains(last) else { return .unknown }
    let body = String(decoding: pending[2..<(pending.count - 1)], as: UTF8.self)
    let parameters = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
    return finalKey(last, parameters: parameters)
  }

  private func finalKey(_ final: UInt8, parameters: [Int?]) -> Key {
    let modifier = parameters.count > 1 ? parameters[1] ?? 1 : 1
    // Modifier 3 is Alt, 5 is Ctrl (xterm's 1 + bits): both move by words on arrows.
    let byWord = modifier == 3 || modifier == 5
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return byWord ? .wordRight : .right
    case UInt8(ascii: "D"): return byWord ? .wordLeft : .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch parameters.first ?? nil {
      case 1, 7: return .home
      case 4, 8: return .end
      case 3: return .delete
      default: return .unknown
      }
    default: return .unknown
    }
  }
}
