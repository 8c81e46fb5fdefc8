import RealmModel

extension SubscriptionSet {
  /// The state stored as Realm Core's `SubscriptionStateForStorage`.
  static func state(stored value: Int64) -> State {
    switch value {
    case 1: .pending
    case 2: .bootstrapping
    case 3: .complete
    case 4: .error
    case 6: .awaitingMark
    default: .unknown
    }
  }
}
