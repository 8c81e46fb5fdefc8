// Test stub.
package io.realm;

public final class RealmAny {
    private RealmAny() {}
    public static RealmAny nullValue() { return new RealmAny(); }
}
