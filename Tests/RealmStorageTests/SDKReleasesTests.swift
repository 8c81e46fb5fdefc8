import Foundation
import RealmTestSupport
import Testing
@testable import RealmStorage

/// The table of SDK releases and file formats (from the SDKs' changelogs), checked against
/// real app files and against itself.
@Suite struct SDKReleasesTests {
  /// Real app files in `../shared/wild` with the SDK release their repository depended on:
  /// the table must say that release opens the file (as is, or by upgrading it), and never that
  /// the file is newer than what the release writes. Most files have exactly the format the
  /// table gives their release.
  @Test(SharedFixtures.enabled) func realAppFilesAreOpenedByTheReleasesTheirAppsUsed() throws {
    let manifest = try #require(SharedFixtures.url("wild/manifest.jsonl"))
    let names: [String: RealmSDK] = [
      "realm-cocoa": .swift, "realm-swift": .swift, "realm-java": .java, "realm-kotlin": .kotlin,
      "realm-js": .javascript, "realm-dotnet": .dotnet, "realm-dart": .dart, "realm-flutter": .dart,
    ]
    var same = 0
    var checked = 0
    for line in try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n") {
      let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      guard entry["kind"] as? String == "realm", let format = entry["current_format"] as? Int, format > 0,
        let sdkText = entry["sdk"] as? String, let space = sdkText.lastIndex(of: " "),
        let sdk = names[String(sdkText[..<space])]
      else { continue }
      let release = String(sdkText[sdkText.index(after: space)...])
      guard let range = SDKReleases.range(of: sdk, release: release) else { continue }
      checked += 1
      let file = entry["file"] as! String
      #expect(format <= range.fileFormat, "\(file): format \(format), but \(sdkText) writes \(range.fileFormat)")
      let opening = SDKReleases.openingAsIs(format: format) + SDKReleases.openingAfterUpgrade(format: format)
      #expect(opening.contains(range), "\(file): \(sdkText) should open format \(format)")
      if format == range.fileFormat { same += 1 }
    }
    #expect(checked >= 50 && same * 10 >= checked * 8, "\(same) of \(checked) files have their release's format")
  }

  /// Within each SDK, ranges follow each other in release order (maintenance branches may
  /// overlap in time), and the Realm Core of each range's last release writes its format (Realm
  /// Core's changelog: 10.0.0 betas before beta.7 write 11, 10.x 20, 11.0.0 betas 21, 11.x and
  /// 12.x 22, 13.x 23, 14.x 24).
  @Test func rangesAreOrderedAndAgreeWithTheirRealmCore() throws {
    for sdk in RealmSDK.allCases {
      let ranges = SDKReleases.ranges.filter { $0.sdk == sdk }
      #expect(!ranges.isEmpty, "\(sdk)")
      for range in ranges {
        let first = try #require(SDKReleases.releaseNumbers(range.first))
        let last = try #require(SDKReleases.releaseNumbers(range.last))
        #expect(!last.lexicographicallyPrecedes(first), "\(range.text)")
        #expect(range.firstDate <= range.lastDate, "\(range.text)")
        #expect(SDKReleases.range(of: sdk, release: range.first) == range)
        #expect(SDKReleases.range(of: sdk, release: range.last) == range)
        guard let cores = range.realmCore, let core = cores.components(separatedBy: " to ").last,
          let major = Int(core.prefix { $0.isNumber }), major >= 10
        else { continue }
        let beta = core.contains("beta")
        let expected =
          switch major {
          case 10: beta ? 11 : 20
          case 11: beta ? 21 : 22
          case 12: 22
          case 13: 23
          default: 24
          }
        #expect(range.fileFormat == expected, "\(range.text): Realm Core \(cores)")
      }
      for (a, b) in zip(ranges, ranges.dropFirst()) {
        let last = try #require(SDKReleases.releaseNumbers(a.last))
        let next = try #require(SDKReleases.releaseNumbers(b.first))
        #expect(last.lexicographicallyPrecedes(next), "\(a.text) then \(b.text)")
        #expect(a.fileFormat != b.fileFormat, "\(a.text) and \(b.text) should be one range")
      }
    }
  }

  /// No release both opens a format as is and upgrades it: the joined spans of upgrading
  /// releases stay clear of the releases that write the format, also where a changelog went
  /// back (Realm JS 10.4.0 wrote 21, 10.4.1 format 20 again).
  @Test func upgradingReleasesNeverOverlapTheReleasesWritingTheFormat() throws {
    for format in [20, 21, 22, 23, 24] {
      let spans = SDKReleases.joined(SDKReleases.openingAfterUpgrade(format: format))
      let asIs = SDKReleases.openingAsIs(format: format)
      for span in spans {
        let first = try #require(SDKReleases.releaseNumbers(span.first))
        let last = try #require(SDKReleases.releaseNumbers(span.last))
        for range in asIs where range.sdk == span.sdk {
          let a = try #require(SDKReleases.releaseNumbers(range.first))
          let b = try #require(SDKReleases.releaseNumbers(range.last))
          #expect(b.lexicographicallyPrecedes(first) || last.lexicographicallyPrecedes(a), "format \(format): \(span.text) overlaps \(range.text)")
        }
      }
    }
  }
}
