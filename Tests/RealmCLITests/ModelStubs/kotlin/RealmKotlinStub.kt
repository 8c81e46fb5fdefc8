// The declarations of Realm Kotlin (io.realm.kotlin 1.x) and its BSON types that realmctl's
// Kotlin models use, with the same names, packages and shapes, so that the generated models
// compile with kotlinc as they would in an app. Bodies are placeholders: nothing runs.
@file:Suppress("unused", "UNUSED_PARAMETER")

package io.realm.kotlin.types

interface BaseRealmObject
interface TypedRealmObject : BaseRealmObject
interface RealmObject : TypedRealmObject
interface EmbeddedRealmObject : TypedRealmObject
interface AsymmetricRealmObject : TypedRealmObject

interface RealmList<E> : MutableList<E>
interface RealmSet<E> : MutableSet<E>
interface RealmDictionary<V> : MutableMap<String, V>

class RealmInstant private constructor(val epochSeconds: Long, val nanosecondsOfSecond: Int) {
    companion object {
        fun from(epochSeconds: Long, nanosecondAdjustment: Int): RealmInstant = RealmInstant(epochSeconds, nanosecondAdjustment)
    }
}

class RealmUUID private constructor() {
    companion object {
        fun random(): RealmUUID = RealmUUID()
        fun from(uuid: String): RealmUUID = RealmUUID()
    }
}

class RealmAny private constructor() {
    companion object {
        fun nullValue(): RealmAny? = null
    }
}
