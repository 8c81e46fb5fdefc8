import Testing

import RealmCrypto

/// The published test vectors: FIPS-197 (AES), NIST SP 800-38A (CBC), FIPS 180-4 examples
/// (SHA-224/256) and RFC 4231 (HMAC-SHA224/256).
@Suite struct CryptoVectorTests {
  func hex(_ s: String) -> [UInt8] {
    let digits = Array(s.utf8.filter { $0 != 0x20 })
    return stride(from: 0, to: digits.count, by: 2).map { i in
      UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16)!
    }
  }

  func encryptBlock(_ aes: AES256, _ input: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 16)
    input.withUnsafeBytes { i in out.withUnsafeMutableBytes { aes.encryptBlock(i.baseAddress!, $0.baseAddress!) } }
    return out
  }

  func decryptBlock(_ aes: AES256, _ input: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 16)
    input.withUnsafeBytes { i in out.withUnsafeMutableBytes { aes.decryptBlock(i.baseAddress!, $0.baseAddress!) } }
    return out
  }

  func cbc(_ aes: AES256, _ input: [UInt8], iv: [UInt8], encrypt: Bool) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: input.count)
    input.withUnsafeBytes { i in
      iv.withUnsafeBytes { v in
        out.withUnsafeMutableBytes { o in
          if encrypt {
            aes.encryptCBC(i.baseAddress!, into: o.baseAddress!, count: input.count, iv: v.baseAddress!)
          } else {
            aes.decryptCBC(i.baseAddress!, into: o.baseAddress!, count: input.count, iv: v.baseAddress!)
          }
        }
      }
    }
    return out
  }

  // FIPS-197 Appendix C.3 (AES-256 example vector).
  @Test func fips197AppendixC3() throws {
    let aes = try AES256(key: hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
    let plain = hex("00112233445566778899aabbccddeeff")
    let cipher = hex("8ea2b7ca516745bfeafc49904b496089")
    #expect(encryptBlock(aes, plain) == cipher)
    #expect(decryptBlock(aes, cipher) == plain)
  }

  // FIPS-197 Appendix B's input with the Appendix A.3 key (known answer from NIST's AESAVS
  // GFSbox/KeySbox style check): encrypt then decrypt is the identity on many blocks.
  @Test func roundTripsManyBlocks() throws {
    let aes = try AES256(key: hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
    var block = [UInt8](repeating: 0, count: 16)
    for i in 0..<200 {
      block[i % 16] &+= UInt8(truncatingIfNeeded: i * 37 + 11)
      #expect(decryptBlock(aes, encryptBlock(aes, block)) == block)
    }
  }

  // NIST SP 800-38A F.2.5 / F.2.6: CBC-AES256.
  @Test func sp80038aCBC() throws {
    let aes = try AES256(key: hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
    let iv = hex("000102030405060708090a0b0c0d0e0f")
    let plain = hex(
      "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51 30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710"
    )
    let cipher = hex(
      "f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d 39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b"
    )
    #expect(cbc(aes, plain, iv: iv, encrypt: true) == cipher)
    #expect(cbc(aes, cipher, iv: iv, encrypt: false) == plain)
    // An odd number of blocks takes the single-block tail of the decryption loop.
    #expect(cbc(aes, Array(cipher[0..<48]), iv: iv, encrypt: false) == Array(plain[0..<48]))
  }

  @Test func rejectsKeysOfOtherSizes() {
    #expect(throws: CryptoError.self) { try AES256(key: [UInt8](repeating: 0, count: 16)) }
  }

  // FIPS 180-4 examples (NIST's SHA-224 and SHA-256 example computations).
  @Test func sha224Examples() {
    #expect(SHA256.hash(Array("abc".utf8), variant: .sha224) == hex("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"))
    #expect(
      SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8), variant: .sha224)
        == hex("75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"))
    #expect(
      SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000), variant: .sha224)
        == hex("20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"))
    #expect(SHA256.hash([UInt8](), variant: .sha224) == hex("d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"))
  }

  @Test func sha256Examples() {
    #expect(SHA256.hash(Array("abc".utf8)) == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    #expect(
      SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"))
  }

  /// Feeding the message in pieces of every size gives the same digest as one update.
  @Test func incrementalUpdatesMatchOneShot() {
    let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
    let whole = SHA256.hash(message, variant: .sha224)
    for piece in [1, 3, 55, 56, 63, 64, 65, 129] {
      var h = SHA256(variant: .sha224)
      var i = 0
      while i < message.count {
        h.update(Array(message[i..<min(i + piece, message.count)]))
        i += piece
      }
      #expect(h.finish() == whole, "pieces of \(piece)")
    }
  }

  // RFC 4231 §4.2-4.8 (test case 5, a truncated tag, does not apply).
  @Test func rfc4231HMACSHA224() {
    let cases: [(key: [UInt8], data: [UInt8], sha224: String, sha256: String)] = [
      ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
       "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22",
       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
      (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
       "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44",
       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
      ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
       "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea",
       "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
      (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
       "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a",
       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
      ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
       "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
      ([UInt8](repeating: 0xaa, count: 131),
       Array(
         "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
           .utf8),
       "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1",
       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]
    for (n, c) in cases.enumerated() {
      #expect(HMAC(key: c.key, variant: .sha224).authenticate(c.data) == hex(c.sha224), "test case \(n)")
      #expect(HMAC(key: c.key, variant: .sha256).authenticate(c.data) == hex(c.sha256), "test case \(n)")
    }
  }

  @Test func constantTimeComparison() {
    #expect(HMAC.constantTimeEquals([1, 2, 3], [1, 2, 3]))
    #expect(!HMAC.constantTimeEquals([1, 2, 3], [1, 2, 4]))
    #expect(!HMAC.constantTimeEquals([1, 2, 3], [1, 2]))
  }
}
