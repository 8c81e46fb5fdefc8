/// HMAC (RFC 2104) over SHA-224 or SHA-256, with the key's padded blocks hashed once: each
/// message then costs only its own blocks plus two.
///
/// ```swift
/// let mac = HMAC(key: key, variant: .sha224)
/// let tag = mac.authenticate(page)           // 28 bytes
/// HMAC.constantTimeEquals(tag, stored)       // compare without leaking where they differ
/// ```
public struct HMAC: Sendable {
  /// The hash state after the inner padded key block.
  private let inner: SHA256
  /// The hash state after the outer padded key block.
  private let outer: SHA256

  /// Size of the tag in bytes (28 for SHA-224, 32 for SHA-256).
  public var tagSize: Int { inner.variant.digestSize }

  /// Prepares HMAC with `key` (keys longer than a block are hashed first, per RFC 2104).
  public init(key: some Collection<UInt8>, variant: SHA256.Variant = .sha256) {
    var k = Array(key)
    if k.count > SHA256.blockSize { k = SHA256.hash(k, variant: variant) }
    k += [UInt8](repeating: 0, count: SHA256.blockSize - k.count)
    var i = SHA256(variant: variant)
    i.update(k.map { $0 ^ 0x36 })
    var o = SHA256(variant: variant)
    o.update(k.map { $0 ^ 0x5C })
    inner = i
    outer = o
  }

  /// The tag of `message`.
  public func authenticate(_ message: some Collection<UInt8>) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: tagSize)
    let bytes = Array(message)
    bytes.withUnsafeBytes { m in out.withUnsafeMutableBytes { authenticate(m, into: $0.baseAddress!) } }
    return out
  }

  /// Writes the tag of `message` (``tagSize`` bytes) to `output`; allocates nothing.
  public func authenticate(_ message: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) {
    var h = inner
    h.update(message)
    var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    withUnsafeMutableBytes(of: &digest) { d in
      h.finish(into: d.baseAddress!)
      var o = outer
      o.update(UnsafeRawBufferPointer(rebasing: d[0..<tagSize]))
      o.finish(into: output)
    }
  }

  /// True when `a` and `b` are equal; the time taken does not depend on where they differ.
  public static func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in 0..<a.count { difference |= a[i] ^ b[i] }
    return difference == 0
  }

  /// True when `a` and `b` are equal; the time taken does not depend on where they differ.
  public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.withUnsafeBytes { x in b.withUnsafeBytes { y in constantTimeEquals(x, y) } }
  }
}
