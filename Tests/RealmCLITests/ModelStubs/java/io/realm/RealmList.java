// Test stub.
package io.realm;

public class RealmList<E> extends java.util.ArrayList<E> {}
