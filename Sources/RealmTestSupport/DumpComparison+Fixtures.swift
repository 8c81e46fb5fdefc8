import RealmTestBytes

extension DumpComparison {
  /// Compares `actual` with a fixture's dump, e.g. `compareDumpWithFixture("alltypes/dump.jsonl",
  /// schema: "alltypes/schema.json", actual: output)`; a fixture that cannot be read is a
  /// difference too.
  public static func compareDumpWithFixture(_ dump: String, schema: String, actual: [UInt8])
    -> [String]
  {
    do {
      return compareDumps(
        expected: try Fixtures.bytes(dump), actual: actual, schema: try Fixtures.bytes(schema))
    } catch {
      return ["cannot read fixture '\(dump)' or '\(schema)': \(error)"]
    }
  }

  /// Compares `actual` with a fixture's schema document (`anyPropertyOrder` for migration
  /// results).
  public static func compareSchemaWithFixture(
    _ schema: String, actual: [UInt8], anyPropertyOrder: Bool = false
  ) -> [String] {
    do {
      return compareSchemas(
        expected: try Fixtures.bytes(schema), actual: actual, anyPropertyOrder: anyPropertyOrder)
    } catch {
      return ["cannot read fixture '\(schema)': \(error)"]
    }
  }
}
