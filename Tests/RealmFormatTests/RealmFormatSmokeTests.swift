import Testing
@testable import RealmFormat

@Suite struct RealmFormatSmokeTests {
  @Test func moduleLoads() {
    #expect(Bool(true))
  }
}
