import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

/// `SameValues.rows`, the row comparison of the reading tests: NaN equals NaN, anything else
/// that differs is different.
@Suite struct SameValuesTests {
  @Test func nanEqualsNanAloneAndInACollection() {
    #expect(SameValues.rows([.double(.nan), .list([.float(.nan), .int(1)])], [.double(.nan), .list([.float(.nan), .int(1)])]))
  }

  @Test func differentRowsDiffer() {
    #expect(!SameValues.rows([.int(1), .string("a")], [.int(1), .string("b")]))
    #expect(!SameValues.rows([.double(.nan)], [.double(1)]))
    #expect(!SameValues.rows([.int(1)], [.int(1), .int(1)]))
  }
}
