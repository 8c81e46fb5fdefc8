// Test stub.
package io.realm;

public class RealmDictionary<V> extends java.util.HashMap<String, V> {}
