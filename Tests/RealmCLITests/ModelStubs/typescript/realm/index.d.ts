// Test stub of the `realm` package's TypeScript declarations (Realm JS 12): only the types the
// generated models use, with the shapes of the real ones, so `tsc --strict` checks the models.
declare namespace Realm {
  class Object<T = unknown, RequiredProperties extends keyof T = never> {
    readonly _brand?: [T, RequiredProperties];
    isValid(): boolean;
  }
  class List<T> {
    readonly length: number;
    [index: number]: T;
    push(...items: T[]): number;
  }
  class Set<T> {
    readonly size: number;
    add(value: T): this;
    has(value: T): boolean;
  }
  type Dictionary<T = unknown> = { [key: string]: T } & { set(element: { [key: string]: T }): Dictionary<T> };
  namespace Types {
    type Mixed = unknown;
  }
  function open(config: { schema?: (typeof Object<any>)[]; schemaVersion?: number; path?: string }): Promise<unknown>;
}

export namespace BSON {
  class ObjectId {
    toHexString(): string;
  }
  class Decimal128 {
    toString(): string;
  }
  class UUID {
    toHexString(): string;
  }
}

export type PropertyTypeName =
  | "bool" | "int" | "float" | "double" | "decimal128" | "objectId" | "uuid" | "string" | "data" | "date"
  | "mixed" | "object" | "linkingObjects" | "list" | "set" | "dictionary";

export type PropertySchema = {
  type: PropertyTypeName;
  objectType?: string;
  property?: string;
  optional?: boolean;
  indexed?: boolean | "full-text";
  mapTo?: string;
  default?: unknown;
};

export type ObjectSchema = {
  name: string;
  primaryKey?: string;
  embedded?: boolean;
  asymmetric?: boolean;
  properties: { [key: string]: PropertySchema | string };
};

export default Realm;
