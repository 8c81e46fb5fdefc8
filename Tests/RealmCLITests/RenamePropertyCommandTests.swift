import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `realmctl rename-property FILE CLASS OLD NEW [--schema-version N]`: the same result as
/// Realm's own rename (the person-rename-age fixture), version rules, name errors.
@Suite struct RenamePropertyCommandTests {
  typealias Support = CommandTestSupport

  @Test func raisesTheVersionByOneAndMatchesRealmsRename() throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "a.realm") { file, _ in
      let result = Support.run(["rename-property", file, "Person", "age", "yearsSinceBirth"])
      expectEqual(result.status, 0, "\(result.stderr)")
      expectEqual(result.stdout, "Renamed 'Person.age' to 'Person.yearsSinceBirth' in \(file) (schema version 1 -> 2)\n")
      #expect(result.stderr.isEmpty)
      let diff = try DumpComparison.compareRealm(at: file, withFixture: "person-rename-age/after", anyPropertyOrder: false)
      #expect(diff.isEmpty, "\(diff.prefix(5))")
      #expect(try Support.problems(file).isEmpty)
    }
  }

  @Test func schemaVersionOptionSetsTheVersion() throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "a.realm") { file, _ throws in
      let result = Support.run(["rename-property", file, "Person", "age", "years", "--schema-version", "10"])
      expectEqual(result.status, 0, "\(result.stderr)")
      expectEqual(result.stdout, "Renamed 'Person.age' to 'Person.years' in \(file) (schema version 1 -> 10)\n")
      try expectEqual(Support.schema(file)["schemaVersion"], .int(10))
      #expect(try Support.problems(file).isEmpty)
    }
  }

  @Test(arguments: [1, 0])
  func aVersionNotAboveTheFilesIsRefused(_ version: Int) throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "a.realm") { file, _ in
      let before = try Support.bytes(file)
      let result = Support.run(["rename-property", file, "Person", "age", "years", "--schema-version", "\(version)"])
      expectEqual(result.status, 65)
      #expect(
        result.stderr
          == "Error: the new schema version must be above the file's version 1 (an app needs a new version to see the change), found \(version)\n",
        "\(result.stderr)")
      #expect(TestFiles.same(try Support.bytes(file), before))
    }
  }

  @Test func unknownNamesAreRefusedWithSuggestions() throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "a.realm") { file, _ in
      let before = try Support.bytes(file)
      let cases: [([String], String)] = [
        (["Persn", "age", "x"], "class 'Persn' not found in '\(file)' (did you mean 'Person'?)"),
        (["Person", "aeg", "x"], "'Person' has no property 'aeg' (did you mean 'age'?)"),
        (["Person", "age", "firstName"], "'Person' already has a property 'firstName'"),
      ]
      for (words, message) in cases {
        let result = Support.run(["rename-property", file] + words)
        expectEqual(result.status, 65, "\(words): \(result.stderr)")
        expectEqual(result.stderr, "Error: \(message)\n", "\(words)")
        #expect(TestFiles.same(try Support.bytes(file), before))
      }
    }
  }

  @Test func aMissingFileExits66() throws {
    try Support.inScratchDirectory { dir in
      let missing = dir.appendingPathComponent("none.realm").path
      let result = Support.run(["rename-property", missing, "Person", "age", "x"])
      expectEqual(result.status, 66)
      expectEqual(result.stderr, "Error: No such file: '\(missing)'\n")
      #expect(!Support.exists(missing + ".lock"))
    }
  }
}
