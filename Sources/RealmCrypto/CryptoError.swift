/// A misuse of the primitives of ``RealmCrypto`` (wrong key or buffer sizes).
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A one-sentence description.
  public var description: String

  /// An error with its one-sentence description.
  public init(description: String) { self.description = description }

  /// A key of `count` bytes where `expected` are needed.
  static func invalidKeySize(_ count: Int, expected: Int) -> CryptoError {
    CryptoError(description: "a key of \(count) bytes was given where \(expected) are needed")
  }
}
