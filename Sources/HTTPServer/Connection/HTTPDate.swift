#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `Date` header's format (RFC 9110 §5.6.7, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// The current time in IMF-fixdate.
  static func now() -> String {
    var seconds = time(nil)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return format(parts)
  }

  /// `parts` (UTC) in IMF-fixdate.
  static func format(_ parts: tm) -> String {
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let day = days[Int(parts.tm_wday) % 7]
    let month = months[Int(parts.tm_mon) % 12]
    return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
