import RealmModel

extension JSONWriter {
  /// Writes `set` as an object: its `version`, `state`, `error` (null when none), and its
  /// subscriptions under `listKey`, each with its `name`, `class` and `query`.
  ///
  /// `realmctl unsync --report` names the list `subscriptions`, the studio's file summary
  /// `items`; the rest of the object is the same in both.
  public mutating func subscriptionSet(_ set: SubscriptionSet, listKey: String) {
    beginObject()
    member("version", set.version)
    member("state", set.state.rawValue)
    member("error", set.error)
    member(listKey, objects: set.subscriptions) { w, subscription in
      w.member("name", subscription.name)
      w.member("class", subscription.className)
      w.member("query", subscription.query)
    }
    endObject()
  }
}
