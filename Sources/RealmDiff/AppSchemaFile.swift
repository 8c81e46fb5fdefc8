import RealmModel
import RealmJSON
import RealmMigration

/// Reads the app schema file of `realmctl diff FILE --schema S`: either a schema document (the
/// `classes` form that `realmctl schema --format json` prints) or a migration plan (its
/// `schema` and `schemaVersion`; the form Realm's oracle reads, `{"schemaVersion": 1,
/// "schema": [...]}`, is a plan without migrations).
public enum AppSchemaFile {
  /// The app's schema and the schema version the file gives (nil when it has none).
  public struct Contents: Sendable {
    /// The schema the app declares.
    public var schema: Schema
    /// The schema version the file states, nil when it states none.
    public var schemaVersion: Int64?
  }

  /// Decodes the bytes of an app schema file.
  ///
  /// - Throws: `MigrationError` `invalidPlan` naming the JSON path at fault.
  public static func decode(_ bytes: [UInt8]) throws(MigrationError) -> Contents {
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw MigrationError(.invalidPlan, "the schema file is not valid JSON: \(error)")
    }
    if json["classes"] != nil {
      do {
        let schema = try SchemaJSON.decode(json)
        return Contents(schema: schema, schemaVersion: schema.schemaVersion)
      } catch {
        throw MigrationError(.invalidPlan, "the schema file is not a valid schema document: \(error)")
      }
    }
    guard json["schema"] != nil else {
      throw MigrationError(
        .invalidPlan,
        "the schema file has neither 'classes' (a schema document) nor 'schema' (a migration plan)")
    }
    let plan = try PlanDecoder.decode(json)
    return Contents(schema: plan.targetSchema, schemaVersion: plan.schemaVersion)
  }
}
