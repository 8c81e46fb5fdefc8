/// AES-256 (FIPS-197) with a 32-byte key: single blocks and CBC over whole buffers, both
/// directions.
///
/// Table-driven (four 1 KiB tables per direction, see `AESTables`), with the round keys and
/// the equivalent inverse cipher's keys expanded once per key. Nothing is allocated per block or
/// per buffer; an instance is immutable after `init` and may be used from several threads at once.
/// The key schedule is wiped when the instance is released.
///
/// ```swift
/// let aes = try AES256(key: key32)
/// aes.encryptCBC(plaintext, into: ciphertext, count: 4096, iv: iv)
/// ```
///
/// Table lookups depend on the data, so this implementation is not constant-time against an
/// attacker who shares the CPU cache with it. realmctl uses it on files at rest, where the
/// attacker model of Realm's own encryption (a copy of the file) applies.
public final class AES256: @unchecked Sendable {
  /// Number of rounds for a 256-bit key.
  static let rounds = 14
  /// Size of a block in bytes.
  public static let blockSize = 16
  /// Size of a key in bytes.
  public static let keySize = 32

  /// 60 encryption round-key words, then 60 decryption round-key words (little-endian columns).
  private let keys: UnsafeMutablePointer<UInt32>
  private let tables = AESTables.shared

  /// Expands `key`, which must be 32 bytes.
  public init(key: some Collection<UInt8>) throws(CryptoError) {
    guard key.count == AES256.keySize else {
      throw CryptoError.invalidKeySize(key.count, expected: AES256.keySize)
    }
    keys = .allocate(capacity: 120)
    let k = Array(key)
    let t = tables
    let ek = keys
    for i in 0..<8 {
      ek[i] = UInt32(k[4 * i]) | UInt32(k[4 * i + 1]) << 8 | UInt32(k[4 * i + 2]) << 16 | UInt32(k[4 * i + 3]) << 24
    }
    var rcon: UInt32 = 1
    func subWord(_ w: UInt32) -> UInt32 {
      UInt32(t.sbox[Int(w & 0xFF)]) | UInt32(t.sbox[Int((w >> 8) & 0xFF)]) << 8
        | UInt32(t.sbox[Int((w >> 16) & 0xFF)]) << 16 | UInt32(t.sbox[Int(w >> 24)]) << 24
    }
    for i in 8..<60 {
      var temp = ek[i - 1]
      if i % 8 == 0 {
        temp = subWord((temp >> 8) | (temp << 24)) ^ rcon
        rcon = UInt32(AESTables.xtime(UInt8(rcon)))
      } else if i % 8 == 4 {
        temp = subWord(temp)
      }
      ek[i] = ek[i - 8] ^ temp
    }
    // Equivalent inverse cipher (FIPS-197 §5.3.5): round keys in reverse order, with
    // InvMixColumns applied to every round key but the first and the last.
    let dk = keys + 60
    for round in 0...AES256.rounds {
      for c in 0..<4 {
        let w = ek[(AES256.rounds - round) * 4 + c]
        dk[round * 4 + c] = (round == 0 || round == AES256.rounds) ? w : t.inverseMixColumn(w)
      }
    }
  }

  deinit {
    keys.update(repeating: 0, count: 120)
    keys.deallocate()
  }

  // MARK: - Blocks

  /// Encrypts the 16 bytes at `input` into `output` (which may be the same memory).
  public func encryptBlock(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
    var s = AESState(input)
    encrypt(&s)
    s.store(output)
  }

  /// Decrypts the 16 bytes at `input` into `output` (which may be the same memory).
  public func decryptBlock(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
    var s = AESState(input)
    decrypt(&s)
    s.store(output)
  }

  // MARK: - CBC

  /// CBC-encrypts `count` bytes (a multiple of 16, no padding) from `input` into `output`
  /// with the 16-byte `iv`. `input` and `output` may be the same memory.
  public func encryptCBC(
    _ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, count: Int,
    iv: UnsafeRawPointer
  ) {
    // Each ciphertext block is the next block's chaining value.
    var chain = AESState(iv)
    for offset in AES256.cbcBlocks(count) {
      chain.xor(AESState(input + offset))
      encrypt(&chain)
      chain.store(output + offset)
    }
  }

  /// CBC-decrypts `count` bytes (a multiple of 16) from `input` into `output` with the
  /// 16-byte `iv`. `input` and `output` may be the same memory.
  public func decryptCBC(
    _ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, count: Int,
    iv: UnsafeRawPointer
  ) {
    var chain = AESState(iv)
    for offset in AES256.cbcBlocks(count) {
      let c = AESState(input + offset)
      var p = c
      decrypt(&p)
      p.xor(chain)
      p.store(output + offset)
      chain = c
    }
  }

  /// The offsets of the blocks of a CBC buffer of `count` bytes, which must be whole blocks.
  @inline(__always)
  private static func cbcBlocks(_ count: Int) -> StrideTo<Int> {
    precondition(count % blockSize == 0, "CBC needs whole blocks")
    return stride(from: 0, to: count, by: blockSize)
  }

  // MARK: - Rounds

  @inline(__always)
  private func encrypt(_ s: inout AESState) {
    cipher(&s, table: tables.te, box: tables.sbox, roundKeys: UnsafePointer(keys), inverse: false)
  }

  /// The equivalent inverse cipher (FIPS-197 §5.3.5): the same rounds with the inverse tables
  /// and the decryption round keys.
  @inline(__always)
  private func decrypt(_ s: inout AESState) {
    cipher(&s, table: tables.td, box: tables.inverseSbox, roundKeys: UnsafePointer(keys + 60), inverse: true)
  }

  /// The rounds on one block: the first round key added, 13 rounds through the T-`table`
  /// (SubBytes, ShiftRows and MixColumns in one lookup per byte), a last round through the S-`box`.
  @inline(__always)
  private func cipher(
    _ s: inout AESState, table: UnsafeMutablePointer<UInt32>, box: UnsafeMutablePointer<UInt8>,
    roundKeys: UnsafePointer<UInt32>, inverse: Bool
  ) {
    var rk = roundKeys
    var s0 = s.w0 ^ rk[0]
    var s1 = s.w1 ^ rk[1]
    var s2 = s.w2 ^ rk[2]
    var s3 = s.w3 ^ rk[3]
    for _ in 1..<AES256.rounds {
      rk += 4
      let t = AES256.columns(s0, s1, s2, s3, inverse: inverse) { AES256.lookUp(table, $0, $1, $2, $3) }
      s0 = t.0 ^ rk[0]; s1 = t.1 ^ rk[1]; s2 = t.2 ^ rk[2]; s3 = t.3 ^ rk[3]
    }
    rk += 4
    let t = AES256.columns(s0, s1, s2, s3, inverse: inverse) { AES256.sub(box, $0, $1, $2, $3) }
    s.w0 = t.0 ^ rk[0]
    s.w1 = t.1 ^ rk[1]
    s.w2 = t.2 ^ rk[2]
    s.w3 = t.3 ^ rk[3]
  }

  /// ShiftRows: the four columns of a round, `column` applied to the words column c takes its
  /// bytes 0 to 3 from (c, c+1, c+2, c+3; the inverse: c, c-1, c-2, c-3).
  @inline(__always)
  private static func columns(
    _ s0: UInt32, _ s1: UInt32, _ s2: UInt32, _ s3: UInt32, inverse: Bool,
    _ column: (UInt32, UInt32, UInt32, UInt32) -> UInt32
  ) -> (UInt32, UInt32, UInt32, UInt32) {
    inverse
      ? (column(s0, s3, s2, s1), column(s1, s0, s3, s2), column(s2, s1, s0, s3), column(s3, s2, s1, s0))
      : (column(s0, s1, s2, s3), column(s1, s2, s3, s0), column(s2, s3, s0, s1), column(s3, s0, s1, s2))
  }

  /// A middle round's column: byte r of word r looked up in row r of the T-`table`.
  @inline(__always)
  private static func lookUp(
    _ table: UnsafeMutablePointer<UInt32>, _ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32
  ) -> UInt32 {
    table[Int(w0 & 0xFF)] ^ table[256 &+ Int((w1 >> 8) & 0xFF)] ^ table[512 &+ Int((w2 >> 16) & 0xFF)]
      ^ table[768 &+ Int(w3 >> 24)]
  }

  /// The final round's substitution: byte r of the result comes from row r of word r.
  @inline(__always)
  private static func sub(
    _ box: UnsafeMutablePointer<UInt8>, _ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32
  ) -> UInt32 {
    UInt32(box[Int(w0 & 0xFF)]) | UInt32(box[Int((w1 >> 8) & 0xFF)]) << 8
      | UInt32(box[Int((w2 >> 16) & 0xFF)]) << 16 | UInt32(box[Int(w3 >> 24)]) << 24
  }
}

/// One 16-byte block as four little-endian column words.
struct AESState {
  var w0: UInt32, w1: UInt32, w2: UInt32, w3: UInt32

  @inline(__always)
  init(_ p: UnsafeRawPointer) {
    w0 = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
    w1 = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    w2 = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
    w3 = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
  }

  @inline(__always)
  func store(_ p: UnsafeMutableRawPointer) {
    p.storeBytes(of: w0.littleEndian, as: UInt32.self)
    p.storeBytes(of: w1.littleEndian, toByteOffset: 4, as: UInt32.self)
    p.storeBytes(of: w2.littleEndian, toByteOffset: 8, as: UInt32.self)
    p.storeBytes(of: w3.littleEndian, toByteOffset: 12, as: UInt32.self)
  }

  @inline(__always)
  mutating func xor(_ o: AESState) {
    w0 ^= o.w0; w1 ^= o.w1; w2 ^= o.w2; w3 ^= o.w3
  }
}
