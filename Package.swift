// swift-tools-version: 6.2
import PackageDescription

/// Every target's settings. With MemberImportVisibility a file sees only the members of the
/// modules it imports, so each file's imports say which modules it uses: the command layer, which
/// does not import RealmFormat, cannot reach its API through another module's types.
let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// The settings of the libraries that read, scan, encode and compare megabytes: `strict`, and
/// `-O` in debug builds too, so that the test suite (a debug build) runs them several times
/// faster (issue 32: `make test` about 2x quicker, for 45% more build time). `-O` keeps the
/// overflow and bounds checks. RealmEdit too (it decodes every input line). The command layer,
/// the migration and rewrite libraries, the studio and the servers stay unoptimised in debug
/// builds: they would cost more build time than they save test time.
/// (From swift-tools-version 6.2 on, unsafe flags no longer keep a package from being used as a
/// versioned dependency.)
let optimized: [SwiftSetting] = strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]

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
    .library(name: "RealmJSON", targets: ["RealmJSON"]),
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
    // The data model every layer shares: schemas, values, file facts, progress and error
    // categories, with no bytes and no files. Also suggestions ("did you mean") and the formats
    // realmctl writes (which formats, not how they differ).
    .target(name: "RealmModel", swiftSettings: optimized),
    // Realm's file format, bytes to values and back, with no I/O. Nodes, tables, cluster trees,
    // search indexes, every column leaf and their encoders.
    .target(name: "RealmFormat", dependencies: ["RealmModel"], swiftSettings: optimized),
    // AES-256, SHA-224/256 and HMAC for encrypted Realm files (no I/O, no dependencies).
    // (Optimised in debug builds too: unoptimised table lookups are twenty times slower.)
    .target(
      name: "RealmCrypto", swiftSettings: optimized),
    // Realm files on disk: opening, locking, writing, encryption and file facts. Mapping, the
    // copy-on-write transaction and Realm's commit protocol, atomic replacement, what `open` shows.
    .target(
      name: "RealmStorage", dependencies: ["RealmModel", "RealmFormat", "RealmCrypto"], swiftSettings: optimized),
    // JSON as Realm's values need it, and the canonical dump format of every output. Parser,
    // writer, the dump codec, schema JSON, the JSON Lines splitter.
    .target(name: "RealmJSON", dependencies: ["RealmModel", "RealmFormat"], swiftSettings: optimized),
    // The Realm Query Language, evaluated as Realm evaluates it. Parser, binder, index plans,
    // scans on every core, SORT/DISTINCT/LIMIT.
    .target(name: "RealmQuery", dependencies: ["RealmModel", "RealmFormat"], swiftSettings: optimized),
    // Everything out of a Realm file: the dump engine and every output format. JSON Lines, JSON,
    // CSV, table, SQL, the stable dump for diffs, the schema as text and as model code.
    .target(
      name: "RealmExport", dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery"],
      swiftSettings: optimized),
    // Whole-file rewrites that keep every object: another format, no free space, another key,
    // a synced realm made local. Upgrade and convert, compact, re-keying, unsync, and what every
    // write shares (the format a rewrite writes, a stopwatch).
    .target(
      name: "RealmRewrite", dependencies: ["RealmModel", "RealmFormat", "RealmStorage"],
      swiftSettings: strict),
    // Migration plans, the expression language, and the migrator that applies them. Plan
    // decoding, the planner, the in-place and rewrite paths, exec steps.
    .target(
      name: "RealmMigration",
      dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmRewrite", "ProcessSpawn"],
      swiftSettings: strict),
    // Objects into a realm: new files from data, inserts and upserts, updates, deletes. Create,
    // JSON Lines and CSV input, the shell's transactions; update and delete run as a plan's data
    // steps through the migrator.
    .target(
      name: "RealmEdit",
      dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmRewrite", "RealmMigration"],
      swiftSettings: optimized),
    // Two realms compared, or a realm against the schema of an app. `diff` of schemas and
    // objects (text, JSON Lines, counts, a plan skeleton) and the app-schema check.
    .target(
      name: "RealmDiff",
      dependencies: ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmExport", "RealmMigration"],
      swiftSettings: strict),
    // `realmctl studio`: the page (HTML, CSS and JavaScript kept in the binary) and its JSON API
    // over the libraries and the edit engine, as one handler of HTTPServer's requests.
    .target(
      name: "RealmStudio",
      dependencies: [
        "RealmModel", "RealmStorage", "RealmJSON", "RealmQuery", "RealmExport", "RealmMigration", "RealmEdit", "RealmRewrite",
        "HTTPServer",
      ],
      swiftSettings: strict),
    // The command layer: argument parsing, help, commands, exit codes. Testable in-process.
    .target(
      name: "RealmCLI",
      dependencies: [
        "RealmModel", "RealmRewrite", "RealmMigration", "RealmEdit", "RealmDiff", "RealmExport", "RealmQuery",
        "RealmStorage", "RealmJSON", "RealmCrypto", "LineEditor", "RealmStudio", "HTTPServer", "ProcessSpawn",
      ],
      swiftSettings: strict),
    .executableTarget(name: "realmctl", dependencies: ["RealmCLI"], swiftSettings: strict),
    // What each fuzz target does with one input: run by FuzzTesting/ under libFuzzer and by
    // RealmFuzzingTests for every input in Tests/FuzzCases.
    .target(
      name: "RealmFuzzing",
      dependencies: ["RealmModel", "RealmCLI", "RealmMigration", "RealmStorage", "RealmJSON", "HTTPServer"],
      swiftSettings: strict),
    // A small line editor for the interactive shell (keys, history, redraw); no dependencies.
    .target(name: "LineEditor", swiftSettings: strict),
    // An HTTP/1.1 server over POSIX sockets (strict parsing, keep-alive, streaming, limits) and
    // the security of a local web app (token, Host, Origin and CSRF checks); no dependencies.
    .target(name: "HTTPServer", swiftSettings: strict),
    // Starting a program with posix_spawn: its descriptors, signal defaults, a session of its
    // own, the environment (exec steps, the browser `studio` opens, the tests' terminal); no
    // dependencies.
    .target(name: "ProcessSpawn", swiftSettings: strict),
    // The test helpers that work through megabytes (files and dumps compared, split and read,
    // seeded random numbers), optimised as the libraries are; test files import it themselves.
    .target(
      name: "RealmTestBytes", dependencies: ["RealmModel", "RealmStorage", "RealmFormat", "RealmJSON"],
      swiftSettings: optimized),
    // Shared test helpers: fixture paths, Realm's oracle and the index checks, crash-test
    // children, terminals, crafted files. Unoptimised: its code runs a few times a test, and
    // `-O` made it compile in about 45 CPU-seconds instead of 8.
    .target(
      name: "RealmTestSupport",
      dependencies: ["RealmModel", "RealmStorage", "RealmFormat", "RealmJSON", "ProcessSpawn", "RealmTestBytes"],
      path: "Sources/RealmTestSupport",
      swiftSettings: strict),
    tests("RealmModelTests", ["RealmModel", "RealmTestSupport", "RealmTestBytes"]),
    tests("RealmFormatTests", ["RealmModel", "RealmFormat", "RealmTestSupport", "RealmTestBytes"]),
    tests("RealmCryptoTests", ["RealmCrypto"]),
    tests("ProcessSpawnTests", ["ProcessSpawn"]),
    tests("RealmStorageTests", ["RealmModel", "RealmStorage", "RealmFormat", "RealmJSON", "RealmTestSupport", "RealmTestBytes"]),
    tests("RealmJSONTests", ["RealmModel", "RealmJSON", "RealmFormat", "RealmStorage", "RealmTestSupport", "RealmTestBytes"]),
    tests(
      "RealmQueryTests", ["RealmModel", "RealmQuery", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport", "RealmTestBytes"]),
    tests(
      "RealmExportTests",
      ["RealmModel", "RealmExport", "RealmQuery", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport", "RealmTestBytes"]),
    tests(
      "RealmMigrationTests",
      [
        "RealmModel", "RealmMigration", "RealmRewrite", "RealmQuery", "RealmFormat", "RealmStorage", "RealmJSON",
        "RealmTestSupport", "RealmTestBytes",
      ]),
    tests(
      "RealmRewriteTests", ["RealmModel", "RealmRewrite", "RealmFormat", "RealmStorage", "RealmTestSupport", "RealmTestBytes"]),
    tests(
      "RealmEditTests",
      ["RealmModel", "RealmEdit", "RealmMigration", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport", "RealmTestBytes"]),
    tests(
      "RealmFuzzingTests", ["RealmModel", "RealmFuzzing", "RealmFormat", "RealmStorage", "RealmJSON", "RealmTestSupport"]),
    tests("LineEditorTests", ["LineEditor", "RealmTestSupport"]),
    tests("HTTPServerTests", ["HTTPServer"]),
    tests(
      "RealmStudioTests",
      [
        "RealmStudio", "HTTPServer", "RealmModel", "RealmStorage", "RealmJSON", "RealmExport", "RealmMigration",
        "RealmEdit", "RealmTestSupport", "RealmTestBytes",
      ]),
    tests(
      "RealmCLITests",
      [
        "RealmCLI", "RealmModel", "RealmRewrite", "RealmMigration", "RealmEdit", "RealmDiff", "RealmExport", "RealmQuery",
        "RealmStorage", "RealmJSON", "RealmFormat", "RealmCrypto", "RealmTestSupport", "RealmTestBytes",
      ], exclude: ["Snapshots", "ModelStubs"]),
  ],
  swiftLanguageModes: [.v6]
)
