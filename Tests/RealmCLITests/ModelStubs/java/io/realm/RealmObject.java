// Test stub of Realm Java's RealmObject: its final methods, so that a generated accessor
// with the same name fails to compile as it would against the real class.
package io.realm;

public abstract class RealmObject implements RealmModel {
    public final boolean isValid() { return true; }
    public final boolean isManaged() { return false; }
    public final boolean isLoaded() { return true; }
    public final boolean isFrozen() { return false; }
    public final boolean load() { return true; }
    public final void deleteFromRealm() {}
    public final <E extends RealmModel> E freeze() { return null; }
    public final void removeAllChangeListeners() {}
}
