import Testing
@testable import RealmStorage

@Suite struct RealmStorageSmokeTests {
  @Test func moduleLoads() {
    #expect(Bool(true))
  }
}
