// swift-tools-version: 6.2
import PackageDescription

/// Every target's settings. With MemberImportVisibility a file sees only the members of the
/// modules it imports, so each file's imports say which modules it uses: the command layer, which
/// does not import RealmFormat, cannot reach its API through another module's types.
let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// A test target, with the strict settings of every target.
func tests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = []) -> Target {
  .testTarget(name: name, dependencies: dependencies, exclude: exclude, swiftSettings: strict)
}

let package = Package(
  name: "realmctl",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "RealmModel", targets: ["RealmModel"]),
    .library(name: "RealmFormat", targets: ["RealmFormat"]),
    .library(name: "RealmStorage", targets: ["RealmStorage"]),
    .library(name: "RealmQuery", targets: ["RealmQuery"]),
    .library(name: "RealmExport", targets: ["RealmExport"]),
    .library(name: "RealmRewrite", targets: ["RealmRewrite"]),
    .library(name: "RealmMigration", targets: ["RealmMigration"]),
    .library(name: "RealmEdit", targets: ["RealmEdit"]),
    .library(name: "RealmDiff", targets: ["RealmDiff"]),
    .executable(name: "realmctl", targets: ["realmctl"]),
    // For the fuzzing package in FuzzTesting/ only: the fuzz targets' logic (not an API).
    .library(name: "RealmFuzzing", targets: ["RealmFuzzing"]),
  ],
  targets: [
    // The data model every layer shares: schemas, property types, values, progress counters,
    // suggestions, writable file formats, error categories. No bytes, no files.
    .target(name: "RealmModel", swiftSettings: strict),
    // The on-disk format: decoding and encoding of nodes, tables, values. No I/O.
    .target(name: "RealmFormat", dependencies: ["RealmModel"], swiftSettings: strict),
    // AES-256, SHA-224/256 and HMAC for encrypted Realm files (no I/O, no dependencies).
    // Optimised in debug builds too: the test suite decrypts megabytes, and unoptimised
    // table lookups are twenty times slower.
    .target(
      name: "RealmCrypto", swiftSettings: strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
    // Files: mapping, locking, read and write transactions, atomic commits, encryption.
    .target(
      name: "RealmStorage", dependencies: ["RealmModel", "RealmFormat", "RealmCrypto"], swiftSettings: strict),
    // JSON only: parser, writer, the canonical dump codec, schema JSON, the JSON Lines decoder.
    .target(name: "RealmJSON", dependencies: ["RealmModel", "RealmFormat"], swiftSettings: strict),
    // Realm Query Language: parser, binder, evaluation with Realm's semantics, SORT/DISTINCT/LIMIT.
    .target(name: "RealmQuery", dependencies: ["RealmModel", "RealmFormat"], swiftSettings: strict),
    // The dump engine and every output format: JSON Lines, JSON, CSV, table, SQL, model code.
    .target(
      name: "RealmExport", dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery"],
      swiftSettings: strict),
    // Whole-file rewrites that keep every object: create (a new file from JSON Lines), upgrade and
    // convert (another format), compact, re-keying, unsync (a synced realm made local), and the
    // pieces every rewrite shares (the atomic rewrite of a file, its format, a stopwatch).
    .target(
      name: "RealmRewrite", dependencies: ["RealmModel", "RealmFormat", "RealmStorage"],
      swiftSettings: strict),
    // Migration plans, the expression language, the migrator (planner, in-place and rewrite
    // paths, exec steps).
    .target(
      name: "RealmMigration",
      dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmRewrite"],
      swiftSettings: strict),
    // Data edits: insert and upsert (JSON Lines and CSV), update, delete, and the shell's
    // transactions; update and delete run as a plan's data steps through the migrator.
    .target(
      name: "RealmEdit",
      dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmRewrite", "RealmMigration"],
      swiftSettings: strict),
    // Comparing realms: `diff` of two files (schema and objects, in text, JSON and as a plan
    // skeleton) and the check of a file against an app's schema.
    .target(
      name: "RealmDiff",
      dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmExport", "RealmMigration"],
      swiftSettings: strict),
    // The command layer: argument parsing, help, commands, exit codes. Testable in-process.
    .target(
      name: "RealmCLI",
      dependencies: [
        "RealmModel", "RealmRewrite", "RealmMigration", "RealmEdit", "RealmDiff", "RealmExport", "RealmQuery",
        "RealmStorage", "RealmJSON", "RealmCrypto", "LineEditor",
      ],
      swiftSettings: strict),
    .executableTarget(name: "realmctl", dependencies: ["RealmCLI"], swiftSettings: strict),
    // What each fuzz target does with one input: run by FuzzTesting/ under libFuzzer and by
    // RealmFuzzingTests for every input in Tests/FuzzCases.
    .target(
      name: "RealmFuzzing", dependencies: ["RealmModel", "RealmCLI", "RealmMigration", "RealmStorage", "RealmJSON"],
      swiftSettings: strict),
    // A small line editor for the interactive shell (keys, history, redraw); no dependencies.
    .target(name: "LineEditor", swiftSettings: strict),
    // Shared test helpers: fixture paths, seeded random numbers, byte mutators.
    .target(
      name: "RealmTestSupport", dependencies: ["RealmModel", "RealmStorage", "RealmFormat", "RealmJSON"],
      path: "Sources/RealmTestSupport",
      swiftSettings: strict),
    tests("RealmModelTests", ["RealmModel", "RealmTestSupport"]),
    tests("RealmFormatTests", ["RealmModel", "RealmFormat", "RealmTestSupport"]),
    tests("RealmCryptoTests", ["RealmCrypto"]),
    tests("RealmStorageTests", ["RealmModel", "RealmStorage", "RealmFormat", "RealmJSON", "RealmTestSupport"]),
    tests("RealmJSONTests", ["RealmModel", "RealmJSON", "RealmFormat", "RealmStorage", "RealmTestSupport"]),
    tests(
      "RealmQueryTests", ["RealmModel", "RealmQuery", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport"]),
    tests(
      "RealmExportTests",
      ["RealmModel", "RealmExport", "RealmQuery", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport"]),
    tests(
      "RealmMigrationTests",
      [
        "RealmModel", "RealmMigration", "RealmRewrite", "RealmQuery", "RealmFormat", "RealmStorage", "RealmJSON",
        "RealmTestSupport",
      ]),
    tests(
      "RealmRewriteTests", ["RealmModel", "RealmRewrite", "RealmFormat", "RealmStorage", "RealmTestSupport"]),
    tests(
      "RealmEditTests",
      ["RealmModel", "RealmEdit", "RealmMigration", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport"]),
    tests(
      "RealmFuzzingTests", ["RealmModel", "RealmFuzzing", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport"]),
    tests("LineEditorTests", ["LineEditor", "RealmTestSupport"]),
    tests(
      "RealmCLITests",
      [
        "RealmCLI", "RealmModel", "RealmRewrite", "RealmMigration", "RealmEdit", "RealmDiff", "RealmExport", "RealmQuery",
        "RealmStorage", "RealmJSON", "RealmFormat", "RealmCrypto", "RealmTestSupport",
      ], exclude: ["Snapshots", "ModelStubs"]),
  ],
  swiftLanguageModes: [.v6]
)
