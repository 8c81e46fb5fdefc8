import RealmTestSupport
import Testing

/// The sample `make test` takes of a campaign's cases (`FixtureSample`, docs/testing.md).
struct FixtureSampleTests {
  @Test(arguments: [(10, 4), (130, 4), (8, 2), (3, 5), (1000, 3), (7, 7)])
  func oneInEveryFewSpreadFromTheFirstToTheLast(count: Int, every: Int) {
    let items = Array(0..<count)
    let sample = FixtureSample.spread(items, every: every, full: false)
    #expect(sample.first == 0 && sample.last == count - 1)
    #expect(sample == sample.sorted() && Set(sample).count == sample.count)
    expectEqual(sample.count, max(2, (count + every - 1) / every))
    // No gap is more than twice the stride: every part of the list keeps cases.
    #expect(zip(sample, sample.dropFirst()).allSatisfy { $1 - $0 <= 2 * every })
    expectEqual(FixtureSample.spread(items, every: every, full: false), sample)
  }

  @Test(arguments: [(24, 2), (11, 2), (10, 3), (5, 7)])
  func interleavedSharesCoverEveryCaseOnce(count: Int, parts: Int) {
    let items = Array(0..<count)
    let shares = (0..<parts).map { FixtureSample.share(items, part: $0, of: parts, full: false) }
    expectEqual(shares.flatMap { $0 }.sorted(), items)
    #expect(shares.allSatisfy { $0.count <= (count + parts - 1) / parts })
    expectEqual(FixtureSample.share(items, part: 1, of: parts, full: false), Array(stride(from: 1, to: count, by: parts)))
    // A part past the number of parts is the same share again.
    expectEqual(FixtureSample.share(items, part: parts + 1, of: parts, full: false), shares[1 % parts])
    expectEqual(FixtureSample.share(items, part: 0, of: parts, full: true), items)
  }

  @Test func theFullModeAndShortListsKeepEveryCase() {
    expectEqual(FixtureSample.spread(Array(0..<50), every: 4, full: true), Array(0..<50))
    expectEqual(FixtureSample.spread([1, 2], every: 4, full: false), [1, 2])
    expectEqual(FixtureSample.spread(Array(0..<9), every: 1, full: false), Array(0..<9))
  }
}
