/// One fuzz target: what happens to one input.
///
/// The same logic runs in two places: the libFuzzer executables of `FuzzTesting/` call ``run(_:)``
/// from `LLVMFuzzerTestOneInput` (a non-empty result there is a crash, so libFuzzer keeps the
/// input), and `RealmFuzzingTests` replays every input ever found, kept in
/// `Tests/FuzzCases/<name>/`, through the same ``run(_:)`` in `make test`.
///
/// Adding a target: write a `static let` like ``reader`` (a name, the input's meaning, its
/// `run` and its seeds), list it in ``all``, and add its name to the `targets` list of
/// `FuzzTesting/Package.swift`.
public struct FuzzTarget: Sendable {
  /// The name: `make fuzz FUZZ_TARGETS=<name>`, the `fuzz-<name>` executable, the
  /// `Tests/FuzzCases/<name>/` folder.
  public let name: String
  /// What an input is, for `make fuzz`'s listing and the docs.
  public let summary: String
  /// Runs one input and returns the broken promises (empty when the input was handled as
  /// realmctl promises: a result, or a clear error with the documented exit code). A Swift
  /// trap inside is a crash.
  public let run: @Sendable ([UInt8]) -> [String]
  /// The seed corpus, built from the fixtures of this checkout.
  public let seeds: @Sendable (FuzzResources) throws -> [FuzzSeed]

  /// Creates a target.
  public init(
    name: String, summary: String, run: @escaping @Sendable ([UInt8]) -> [String],
    seeds: @escaping @Sendable (FuzzResources) throws -> [FuzzSeed]
  ) {
    self.name = name
    self.summary = summary
    self.run = run
    self.seeds = seeds
  }

  /// Every target, in the order `make fuzz` runs them.
  public static let all: [FuzzTarget] = [.reader, .queries, .jsonLines, .encrypted, .legacy, .edits, .http]

  /// The target called `name`.
  public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// One input of a seed corpus.
public struct FuzzSeed: Sendable {
  /// A file name that says where the seed comes from (unique within a target).
  public var name: String
  /// The input.
  public var bytes: [UInt8]

  /// Creates a seed.
  public init(name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = bytes
  }
}
