// swift-tools-version: 6.2
// Coverage-guided fuzzing of realmctl with libFuzzer (docs/testing.md, "Fuzzing").
//
// Build only with the fuzzer runtime: `make fuzz`, or
//   swift build --package-path FuzzTesting -c release -Xswiftc -sanitize=fuzzer,address
// (on Linux with -Xswiftc -use-ld=lld as well: gold fails to link fuzzer executables of Swift 6.3)
// Each target's logic is RealmFuzzing.FuzzTarget in the root package; an executable here
// only names it. To add a target, add its name below and a Sources/fuzz-<name>/main.swift.
import PackageDescription

let targets = ["reader", "queries", "jsonl", "encrypted", "legacy", "edits", "http"]

let package = Package(
  name: "realmctl-fuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "realmctl", path: "..")],
  targets: [
    // Declares libFuzzer's LLVMFuzzerRunDriver (the runtime comes with -sanitize=fuzzer).
    .target(name: "CLibFuzzer"),
    // LLVMFuzzerTestOneInput and the driver every fuzz executable calls.
    .target(
      name: "FuzzDriver",
      dependencies: ["CLibFuzzer", .product(name: "RealmFuzzing", package: "realmctl")]),
  ]
    + targets.map { name in
      .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzDriver"], path: "Sources/fuzz-\(name)")
    },
  swiftLanguageModes: [.v6]
)
