/// A Realm SDK, as its changelog names it.
public enum RealmSDK: String, Sendable, Hashable, CaseIterable {
  /// Realm Swift (Realm Cocoa before 10.x): `realm/realm-swift`.
  case swift
  /// Realm Java (Android): `realm/realm-java`.
  case java
  /// Realm Kotlin (Android and Kotlin Multiplatform): `realm/realm-kotlin`.
  case kotlin
  /// Realm JS (Node.js, React Native, Electron): `realm/realm-js`.
  case javascript
  /// Realm .NET (C#, Xamarin, Unity, MAUI): `realm/realm-dotnet`.
  case dotnet
  /// Realm Dart (Flutter): `realm/realm-dart`.
  case dart

  /// `Realm Swift`, `Realm JS`, `Realm .NET`.
  public var name: String {
    switch self {
    case .swift: "Realm Swift"
    case .java: "Realm Java"
    case .kotlin: "Realm Kotlin"
    case .javascript: "Realm JS"
    case .dotnet: "Realm .NET"
    case .dart: "Realm Dart"
    }
  }

  /// The GitHub repository whose `CHANGELOG.md` the release facts come from.
  public var repository: String {
    switch self {
    case .swift: "realm/realm-swift"
    case .java: "realm/realm-java"
    case .kotlin: "realm/realm-kotlin"
    case .javascript: "realm/realm-js"
    case .dotnet: "realm/realm-dotnet"
    case .dart: "realm/realm-dart"
    }
  }
}
