// Test stub: only the shape of Realm Java's API that generated models use.
package io.realm;

public interface RealmModel {}
