// Realm Kotlin's collection factories (io.realm.kotlin.ext), as declared there.
@file:Suppress("unused", "UNUSED_PARAMETER")

package io.realm.kotlin.ext

import io.realm.kotlin.types.RealmDictionary
import io.realm.kotlin.types.RealmList
import io.realm.kotlin.types.RealmSet

fun <T> realmListOf(vararg elements: T): RealmList<T> = throw UnsupportedOperationException("stub")
fun <T> realmSetOf(vararg elements: T): RealmSet<T> = throw UnsupportedOperationException("stub")
fun <T> realmDictionaryOf(vararg elements: Pair<String, T>): RealmDictionary<T> = throw UnsupportedOperationException("stub")
