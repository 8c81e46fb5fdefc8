import Testing
@testable import RealmMigration

@Suite struct RealmMigrationSmokeTests {
  @Test func moduleLoads() {
    #expect(Bool(true))
  }
}
