/// Where things are in an encrypted Realm file (Realm Core 14's layout, from
/// `encrypted_file_mapping.cpp`): the plaintext ("data") is cut into 4096-byte pages; each run
/// of 64 data pages is preceded by one 4096-byte metadata page holding their 64-byte IV-table
/// entries. So the file is `[meta 0][data 0..63][meta 1][data 64..127]...`.
enum EncryptedLayout {
  /// Size of a data page and of a metadata page.
  static let pageSize = 4096
  /// Size of one IV-table entry.
  static let entrySize = 64
  /// Data pages per metadata page.
  static let pagesPerBlock = 64
  /// The smallest encrypted file: one metadata page and one data page.
  static let minimumFileSize = 2 * pageSize

  /// File offset of data page `page`.
  static func filePosition(ofPage page: Int) -> Int {
    (page + page / pagesPerBlock + 1) * pageSize
  }

  /// File offset of the IV-table entry of data page `page`.
  static func entryPosition(ofPage page: Int) -> Int {
    (page / pagesPerBlock) * (pagesPerBlock + 1) * pageSize + (page % pagesPerBlock) * entrySize
  }

  /// File offset of the metadata page that holds the entry of data page `page`.
  static func metadataPosition(ofPage page: Int) -> Int {
    (page / pagesPerBlock) * (pagesPerBlock + 1) * pageSize
  }

  /// The data size of an encrypted file of `fileSize` bytes (Realm's
  /// `encrypted_size_to_data_size`): the file size less its metadata pages.
  static func dataSize(fileSize: Int) -> Int {
    guard fileSize > 0 else { return 0 }
    let metadataPages = (fileSize / pageSize + pagesPerBlock) / (pagesPerBlock + 1)
    return fileSize - metadataPages * pageSize
  }

  /// The file size for `dataSize` bytes of data (Realm's `data_size_to_encrypted_size`): the
  /// data rounded up to whole pages, plus one metadata page per started run of 64 pages
  /// (and one more when the data ends exactly at the end of a run, as Realm computes it).
  static func fileSize(dataSize: Int) -> Int {
    let rounded = (dataSize + pageSize - 1) / pageSize * pageSize
    return rounded + (rounded / pageSize / pagesPerBlock + 1) * pageSize
  }

  /// Number of complete data pages in a file of `fileSize` bytes.
  static func completeDataPages(fileSize: Int) -> Int {
    dataSize(fileSize: fileSize) / pageSize
  }
}
