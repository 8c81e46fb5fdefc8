// Test stub.
package org.bson.types;

public final class ObjectId {}
