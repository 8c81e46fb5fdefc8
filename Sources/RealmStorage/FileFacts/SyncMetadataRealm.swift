/// The metadata realm of a Device Sync app (`sync_metadata.realm`, under
/// `mongodb-realm/<app id>/server-utility/metadata/` or, before SDK 10,
/// `realm-object-server/io.realm.object-server-utility/metadata/`): a local realm in which the
/// SDK keeps the logged-in users (identities, tokens, profile) and the paths of synced files to
/// delete or back up. It holds no app data.
///
/// Recognised by its classes, as Realm Core's `object-store/sync/impl/app_metadata.cpp` (and
/// the `sync_metadata.cpp` of older SDKs) creates them: `UserMetadata` and `FileActionMetadata`,
/// and no class outside that schema.
public enum SyncMetadataRealm {
  /// Every class a sync metadata realm has had, SDK 2 to SDK 10.
  public static let classNames: Set<String> = [
    "UserMetadata", "FileActionMetadata", "UserIdentity", "current_user_identity", "AppMetadata",
    "ClientMetadata", "profile",
  ]

  /// True when a file with these classes is a sync metadata realm.
  public static func matches(classNames names: some Collection<String>) -> Bool {
    names.contains("UserMetadata") && names.contains("FileActionMetadata") && names.allSatisfy(classNames.contains)
  }
}
