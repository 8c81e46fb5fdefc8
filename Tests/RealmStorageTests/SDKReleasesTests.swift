import Foundation
import RealmModel
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
  /// 12.x 22, 13.x 23, 14.x and 20.x 24; no other released Realm Core writes 24, none writes 25).
  /// Two neighbouring ranges differ in format or in Device Sync.
  @Test func rangesAreOrderedAndAgreeWithTheirRealmCore() throws {
    for sdk in RealmSDK.allCases {
      let ranges = SDKReleases.ranges.filter { $0.sdk == sdk }
      #expect(!ranges.isEmpty, "\(sdk)")
      for range in ranges {
        let first = try #require(SDKReleases.releaseNumbers(range.first))
        let last = try #require(SDKReleases.releaseNumbers(range.last))
        #expect(!last.lexicographicallyPrecedes(first), "\(range.text)")
        #expect(range.firstDate <= range.lastDate, "\(range.text)")
        expectEqual(SDKReleases.range(of: sdk, release: range.first), range)
        expectEqual(SDKReleases.range(of: sdk, release: range.last), range)
        guard let cores = range.realmCore, let core = cores.components(separatedBy: " to ").last,
          let major = Int(core.prefix { $0.isNumber }), major >= 10
        else { continue }
        let beta = core.contains("beta")
        let expected: Int? =
          switch major {
          case 10: beta ? 11 : 20
          case 11: beta ? 21 : 22
          case 12: 22
          case 13: 23
          case 14, 20: 24
          default: nil
          }
        expectEqual(range.fileFormat, expected, "\(range.text): Realm Core \(cores)")
      }
      for (a, b) in zip(ranges, ranges.dropFirst()) {
        let last = try #require(SDKReleases.releaseNumbers(a.last))
        let next = try #require(SDKReleases.releaseNumbers(b.first))
        #expect(last.lexicographicallyPrecedes(next), "\(a.text) then \(b.text)")
        #expect(a.fileFormat != b.fileFormat || a.deviceSync != b.deviceSync, "\(a.text) and \(b.text) should be one range")
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

  /// The 20.x line (Realm Kotlin 3): built on Realm Core 20, writes format 24, has no Device
  /// Sync; every release of 10.x-numbered lines on Realm Core 14 has it. Where the changelog
  /// snapshot stops before a range's end, the release it stops at lies inside the range.
  @Test func theLineOnRealmCore20HasNoDeviceSync() throws {
    let core20 = SDKReleases.ranges.filter { $0.realmCore?.hasPrefix("20.") == true }
    expectEqual(Set(core20.map(\.sdk)), [.swift, .kotlin, .javascript, .dotnet, .dart])
    for range in core20 {
      #expect(range.fileFormat == 24 && !range.deviceSync, "\(range.text)")
      #expect(range.firstDate >= "2024-09-09", "\(range.text)")
    }
    for range in SDKReleases.ranges where range.realmCore?.hasPrefix("14.") == true {
      #expect(range.deviceSync, "\(range.text)")
    }
    for range in SDKReleases.ranges {
      guard let recorded = range.recordedThrough else { continue }
      let r = try #require(SDKReleases.releaseNumbers(recorded))
      #expect(!r.lexicographicallyPrecedes(try #require(SDKReleases.releaseNumbers(range.first))), "\(range.text)")
      #expect(r.lexicographicallyPrecedes(try #require(SDKReleases.releaseNumbers(range.last))), "\(range.text)")
    }
  }

  /// Two lines of one SDK released side by side (10.x with Device Sync, 20.x without) stay two
  /// spans; a line that follows another is joined (Realm Kotlin 2.3.0, then 3.0.0).
  @Test func overlappingLinesStayApartAndFollowingOnesJoin() {
    let spans = SDKReleases.joined(SDKReleases.openingAsIs(format: 24))
    expectEqual(SDKReleases.text(spans.filter { $0.sdk == .swift }), "Realm Swift 10.49.0-10.54.6 and 20.0.0-20.0.6")
    expectEqual(SDKReleases.text(spans.filter { $0.sdk == .kotlin }), "Realm Kotlin 1.15.0-3.0.0")
    expectEqual(SDKReleases.text(spans.filter { $0.sdk == .dart }), "Realm Dart 2.0.0-3.5.0 and 20.0.0-20.2.0")
    let upgrading22 = SDKReleases.joined(SDKReleases.openingAfterUpgrade(format: 22))
    expectEqual(SDKReleases.text(upgrading22.filter { $0.sdk == .swift }), "Realm Swift 10.35.0-10.54.6 and 20.0.0-20.0.6")
  }

  /// A synced realm opens only in releases with Device Sync; the others are named as refusing
  /// it; a sync server's file opens in none.
  @Test func syncedRealmsOpenOnlyWithDeviceSync() throws {
    for format in [20, 22, 23, 24] {
      let local = SDKReleases.openers(format: format, history: .inRealm)
      let synced = SDKReleases.openers(format: format, history: .syncClient)
      #expect(local.withoutDeviceSync.isEmpty)
      let withSync = SDKReleases.ranges.filter(\.deviceSync)
      for span in synced.asIs + synced.afterUpgrade {
        #expect(withSync.contains { $0.sdk == span.sdk && $0.first == span.first }, "format \(format): \(span.text)")
      }
      for span in synced.withoutDeviceSync {
        expectEqual(SDKReleases.range(of: span.sdk, release: span.first)?.deviceSync, false, "format \(format): \(span.text)")
      }
      expectEqual(SDKReleases.openers(format: format, history: .syncServer), SDKOpeners(asIs: [], afterUpgrade: [], withoutDeviceSync: []))
    }
    let synced24 = SDKReleases.openers(format: 24, history: .syncClient)
    expectEqual(SDKReleases.text(synced24.withoutDeviceSync), "Realm Swift 20.0.0-20.0.6, Realm Kotlin 3.0.0, Realm JS 20.0.0-20.2.0, Realm .NET 20.0.0-20.1.0, Realm Dart 20.0.0-20.2.0")
    #expect(SDKReleases.text(SDKReleases.openers(format: 22, history: .syncClient).withoutDeviceSync).contains("Realm Kotlin 0.6.0 and 3.0.0"))
  }
}
