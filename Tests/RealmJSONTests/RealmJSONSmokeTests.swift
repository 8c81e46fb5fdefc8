import Testing
@testable import RealmJSON

@Suite struct RealmJSONSmokeTests {
  @Test func moduleLoads() {
    #expect(Bool(true))
  }
}
