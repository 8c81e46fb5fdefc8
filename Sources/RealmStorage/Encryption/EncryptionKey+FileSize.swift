extension EncryptionKey {
  /// The size on disk of an encrypted Realm file holding `dataSize` bytes of plaintext
  /// (Realm's `data_size_to_encrypted_size`: whole pages plus the IV-table pages), for reports
  /// that give a file's size before it is written (`upgrade --dry-run`).
  public static func encryptedFileSize(dataSize: Int) -> Int {
    EncryptedLayout.fileSize(dataSize: dataSize)
  }
}
