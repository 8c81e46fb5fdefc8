// Realm Kotlin's model annotations (io.realm.kotlin.types.annotations), as declared there.
package io.realm.kotlin.types.annotations

@Target(AnnotationTarget.PROPERTY, AnnotationTarget.FIELD)
annotation class PrimaryKey

@Target(AnnotationTarget.PROPERTY, AnnotationTarget.FIELD)
annotation class Index

@Target(AnnotationTarget.PROPERTY, AnnotationTarget.FIELD)
annotation class FullText

@Target(AnnotationTarget.PROPERTY, AnnotationTarget.FIELD)
annotation class Ignore

@Target(AnnotationTarget.CLASS, AnnotationTarget.PROPERTY, AnnotationTarget.FIELD)
annotation class PersistedName(val name: String)
