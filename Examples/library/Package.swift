// swift-tools-version: 6.2
// Small programs that use realmctl's libraries as any Swift package would: through the
// products of the root package (`../..`), one per library. Each `main.swift` is the program of
// one module's "Getting started" article (Sources/<Module>/<Module>.docc/GettingStarted.md), word for word;
// `scripts/check-library-docs.sh` checks that, loads this manifest, builds every program against the
// root package's own build and runs it.
import PackageDescription

let package = Package(
  name: "realm-library-examples",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "realmctl", path: "../..")],
  targets: [
    .executableTarget(
      name: "file-summary",
      dependencies: [.product(name: "RealmStorage", package: "realmctl")]),
    .executableTarget(
      name: "read-objects",
      dependencies: [
        .product(name: "RealmFormat", package: "realmctl"), .product(name: "RealmStorage", package: "realmctl"),
      ]),
    .executableTarget(
      name: "query-objects",
      dependencies: [
        .product(name: "RealmStorage", package: "realmctl"), .product(name: "RealmQuery", package: "realmctl"),
      ]),
    .executableTarget(
      name: "export-objects",
      dependencies: [
        .product(name: "RealmStorage", package: "realmctl"), .product(name: "RealmQuery", package: "realmctl"),
        .product(name: "RealmExport", package: "realmctl"),
      ]),
    .executableTarget(
      name: "migrate-copy",
      dependencies: [
        .product(name: "RealmStorage", package: "realmctl"), .product(name: "RealmExport", package: "realmctl"),
        .product(name: "RealmMigration", package: "realmctl"),
      ]),
    .executableTarget(
      name: "compare-schemas",
      dependencies: [.product(name: "RealmModel", package: "realmctl")]),
    .executableTarget(
      name: "schema-json",
      dependencies: [
        .product(name: "RealmModel", package: "realmctl"), .product(name: "RealmStorage", package: "realmctl"),
        .product(name: "RealmJSON", package: "realmctl"),
      ]),
    .executableTarget(
      name: "convert-copy",
      dependencies: [
        .product(name: "RealmModel", package: "realmctl"), .product(name: "RealmStorage", package: "realmctl"),
        .product(name: "RealmRewrite", package: "realmctl"),
      ]),
    .executableTarget(
      name: "edit-copy",
      dependencies: [
        .product(name: "RealmEdit", package: "realmctl"), .product(name: "RealmMigration", package: "realmctl"),
      ]),
    .executableTarget(
      name: "diff-copies",
      dependencies: [
        .product(name: "RealmStorage", package: "realmctl"), .product(name: "RealmEdit", package: "realmctl"),
        .product(name: "RealmDiff", package: "realmctl"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
