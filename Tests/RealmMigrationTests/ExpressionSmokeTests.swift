import Testing
@testable import RealmMigration

@Suite struct ExpressionSmokeTests {
  @Test func fullName() throws {
    #expect(try ExpressionFixture.eval("old.firstName + ' ' + old.lastName") == str("Ada Lovelace"))
  }
}
