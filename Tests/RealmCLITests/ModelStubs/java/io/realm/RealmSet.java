// Test stub.
package io.realm;

public class RealmSet<E> extends java.util.HashSet<E> {}
