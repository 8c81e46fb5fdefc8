import RealmFormat
import RealmModel
import RealmStorage

/// `encrypt`, `decrypt` and re-keying, optionally in another file format: the pages are copied
/// with the new key when the format stays (`RealmEncryption.rewrite(path:key:newKey:outputPath:faultInjection:)`),
/// else the objects are rewritten in the asked format by ``Upgrader`` with the new key.
public enum KeyRewrite {
  /// Writes the realm at `path` (opened with `key`) with `newKey` (nil: unencrypted), over
  /// itself or into `outputPath`, in `fileFormat` (nil: the file's own).
  public static func rewrite(
    path: String, key: EncryptionKey?, newKey: EncryptionKey?, outputPath: String? = nil,
    fileFormat: WritableFileFormat? = nil
  ) throws -> RewriteSummary {
    let format = try RealmFile.open(path: path, key: key).group.fileFormat
    if let fileFormat, fileFormat.rawValue != format, format != 0 {
      var options = UpgradeOptions()
      options.encryptionKey = key
      options.replacesKey = true
      options.newEncryptionKey = newKey
      options.outputPath = outputPath
      options.fileFormat = fileFormat
      let r = try Upgrader.upgrade(path: path, options: options)
      return RewriteSummary(r)
    }
    let r = try RealmEncryption.rewrite(path: path, key: key, newKey: newKey, outputPath: outputPath)
    return RewriteSummary(sizeBefore: r.sizeBefore, sizeAfter: r.sizeAfter, format: format)
  }
}
