// The BSON types of org.mongodb.kbson that Realm Kotlin models use, as declared there.
@file:Suppress("unused", "UNUSED_PARAMETER")

package org.mongodb.kbson

class ObjectId() {
    constructor(hexString: String) : this()
}

class Decimal128(value: String)

typealias BsonObjectId = ObjectId
typealias BsonDecimal128 = Decimal128
