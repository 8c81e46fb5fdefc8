// Test stub of the `realm` package: the parts generated models touch when their module loads.
class RealmObject {}
const Realm = { Object: RealmObject, BSON: {} };
export const BSON = Realm.BSON;
export default Realm;
