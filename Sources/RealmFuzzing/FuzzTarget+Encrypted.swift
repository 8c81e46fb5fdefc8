import Foundation
import RealmStorage

extension FuzzTarget {
  /// The input is an encrypted file, read with a fixed key: the decrypting layer (page
  /// HMACs, IVs, the page map) under every reading command.
  ///
  /// `open`, `open --check --json`, `schema --format json`, `dump` (JSON Lines) and
  /// `decrypt --output` with the key of `Tests/Fixtures/encrypted/person.key`; each must
  /// succeed or exit 65 with an `Error:` line (`--check` may answer 1), and print no more than
  /// the reader's bound. A file that `decrypt` wrote must open without a key.
  public static let encrypted = FuzzTarget(
    name: "encrypted",
    summary: "an encrypted .realm file, read with a fixed key: open, open --check, schema, dump, decrypt",
    run: { input in
      let file = readingCommands(on: input, as: "encrypted.realm", options: ["--key-file", EncryptedSeeds.keyFile])
      return file.problems
        + writingCommand(output: "decrypted.realm") { plain in
          ["decrypt", file.path, "--output", plain, "--key-file", EncryptedSeeds.keyFile]
        } check: { plain in
          CommandProbe(["open", plain]).problems(allowed: [0, 65])
        }
    },
    seeds: { resources in try EncryptedSeeds.seeds(resources) })
}

/// The fixed key of the `encrypted` target and its seeds.
enum EncryptedSeeds {
  /// The key file every input is read with: the key of Realm's encrypted `person.realm`.
  static let keyFile: String = {
    let resources = FuzzResources.checkout
    let bytes = (try? resources.bytes(resources.fixture("encrypted/person.key"))) ?? []
    return ScratchDirectory.shared.write(bytes, to: "fixed.key")
  }()

  /// The encrypted fixtures with that key (up to 256 KiB), and the small plain seeds of the
  /// `reader` target encrypted with it by `RealmEncryption` (page for page, as Realm writes a
  /// new encrypted file).
  static func seeds(_ resources: FuzzResources) throws -> [FuzzSeed] {
    let fixed = try resources.bytes(resources.fixture("encrypted/person.key"))
    let key = try EncryptionKey(keyFile: fixed)
    var seeds: [FuzzSeed] = []
    let root = resources.fixture("encrypted")
    for relative in resources.files(below: root, where: { $0.hasSuffix(".realm") }) {
      let url = root.appendingPathComponent(relative)
      let keyURL = url.deletingPathExtension().appendingPathExtension("key")
      guard (try? resources.bytes(keyURL)) == fixed else { continue }
      let bytes = try resources.bytes(url)
      if bytes.count <= 256 << 10 { seeds.append(resources.seed(url, bytes: bytes)) }
    }
    let scratch = ScratchDirectory.shared
    for plain in try FuzzTarget.readerSeeds(resources) where plain.bytes.count <= 64 << 10 {
      let source = scratch.write(plain.bytes, to: "seed-plain.realm")
      let output = scratch.freshFile("seed-encrypted.realm")
      // A seed the reader refuses cannot be encrypted; it stays a plain seed elsewhere.
      guard (try? RealmEncryption.rewrite(path: source, key: nil, newKey: key, outputPath: output)) != nil else { continue }
      seeds.append(FuzzSeed(name: "encrypted-\(plain.name)", bytes: try resources.bytes(URL(fileURLWithPath: output))))
    }
    return seeds
  }
}
