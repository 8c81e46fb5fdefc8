// Imports generated Realm JS model modules and prints the schema they declare, read the way
// Realm JS reads class-based models: the class must extend Realm.Object, its `static schema`
// gives the object schema, shorthand types ("int?", "Dog[]", "string{}") and the object form
// are normalized, `mapTo` gives the stored property name. Output: one line per module,
// "<module>\t{"schemaVersion": N, "classes": [...]}".
import Realm from "realm";
import { pathToFileURL } from "node:url";

const primitive = new Set(["bool", "int", "float", "double", "decimal128", "objectId", "string", "data", "date", "mixed", "uuid"]);
const collections = { "[]": "list", "<>": "set", "{}": "dictionary" };

function normalize(key, spec, primaryKey) {
  let type, objectType, optional = false;
  if (typeof spec === "string") {
    let s = spec;
    const end = s.slice(-2);
    if (collections[end]) { type = collections[end]; s = s.slice(0, -2); }
    if (s.endsWith("?")) { optional = true; s = s.slice(0, -1); }
    if (type) { objectType = s; } else if (primitive.has(s)) { type = s; } else { type = "object"; objectType = s; }
    spec = { type, objectType, optional };
  }
  ({ type, objectType } = spec);
  optional = !!spec.optional;
  const element = type === "list" || type === "set" || type === "dictionary" ? objectType : type;
  const isObject = type === "object" || !primitive.has(element);
  if (element === "mixed" || type === "object" || (type === "dictionary" && isObject)) optional = true;
  if ((type === "list" || type === "set") && isObject) optional = false;
  const out = { name: spec.mapTo ?? key, type };
  if (objectType !== undefined) out.objectType = objectType;
  out.optional = optional;
  // Realm JS: `indexed` is a boolean or "full-text" (`IndexedType`).
  out.indexed = spec.indexed === "full-text" ? "full-text" : !!spec.indexed || key === primaryKey;
  return out;
}

for (const file of process.argv.slice(2)) {
  const module = await import(pathToFileURL(file).href);
  const classes = module.schema.map((cls) => {
    if (!(cls.prototype instanceof Realm.Object)) throw new Error(`${cls.name} does not extend Realm.Object`);
    const s = cls.schema;
    const props = Object.entries(s.properties);
    const pk = s.primaryKey === undefined ? null : (normalize(s.primaryKey, s.properties[s.primaryKey]).name);
    return {
      name: s.name, embedded: !!s.embedded, primaryKey: pk,
      properties: props.map(([key, spec]) => normalize(key, spec, s.primaryKey)),
    };
  });
  console.log(file + "\t" + JSON.stringify({ schemaVersion: module.schemaVersion, classes }));
}
