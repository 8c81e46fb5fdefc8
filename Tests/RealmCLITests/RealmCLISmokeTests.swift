import Testing
@testable import RealmCLI

@Suite struct RealmCLISmokeTests {
  @Test func moduleLoads() {
    #expect(Bool(true))
  }
}
