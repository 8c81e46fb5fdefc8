/// The history kept in a file (group top slot 7, `Replication::HistoryType`).
public enum HistoryType: Int, Sendable, Hashable {
  case none = 0
  case outOfRealm = 1
  case inRealm = 2
  case syncClient = 3
  case syncServer = 4
}
