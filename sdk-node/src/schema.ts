// JSON Schema for plugin tool parameters: the TypeScript type a schema
// describes, and a check of received arguments against it.

/** The primitive types of JSON Schema. */
export type SchemaType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/**
 * A JSON Schema, as a tool declares its parameters. The keywords listed are
 * the ones the SDK checks arguments against; any other keyword is sent to
 * the LLM as written but not checked.
 */
export interface JSONSchema {
  readonly type?: SchemaType | readonly SchemaType[];
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly properties?: { readonly [name: string]: JSONSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JSONSchema;
  readonly items?: JSONSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly [keyword: string]: unknown;
}

/** The schema of a tool's parameters: always an object. */
export interface ObjectSchema extends JSONSchema {
  readonly type: "object";
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Primitive<T> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? unknown[]
          : T extends "object"
            ? { [key: string]: unknown }
            : never;

type InferObject<P, R> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: Infer<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: Infer<P[K]>;
  }
>;

/**
 * The TypeScript type of the values a schema accepts, for the common cases:
 * string, number, integer, boolean, null, enum, const, array with items,
 * object with properties and required keys, and a list of types. Anything
 * else is `unknown`.
 */
export type Infer<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: "array"; readonly items: infer I }
      ? Infer<I>[]
      : S extends { readonly type: "object"; readonly properties: infer P }
        ? InferObject<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
        : S extends { readonly type: infer T }
          ? T extends readonly (infer U)[]
            ? Primitive<U>
            : Primitive<T>
          : unknown;

/** A received JSON value, named for an error message, in the words of the Go and Python SDKs. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) return "an object";
  return JSON.stringify(value) ?? String(value);
}

function isType(type: SchemaType, value: unknown): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

const article = (t: string): string =>
  t === "null" ? t : t === "integer" || t === "array" || t === "object" ? `an ${t}` : `a ${t}`;

/**
 * Checks value against schema and says what is wrong with the first argument
 * that does not fit, naming it by its path ("city", "days[2]",
 * "where.lat"); undefined when the value fits. An optional argument sent as
 * null counts as not sent.
 */
export function check(schema: JSONSchema, value: unknown, path = ""): string | undefined {
  const name = path === "" ? "the arguments" : `argument "${path}"`;
  if (schema.type !== undefined) {
    const types: readonly SchemaType[] = typeof schema.type === "string" ? [schema.type] : schema.type;
    if (!types.some((t) => isType(t, value))) {
      return `${name} must be ${types.map(article).join(" or ")}, not ${describe(value)}`;
    }
  }
  if (schema.const !== undefined && !same(schema.const, value)) {
    return `${name} must be ${JSON.stringify(schema.const)}, not ${describe(value)}`;
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => same(e, value))) {
    return `${name} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}, not ${describe(value)}`;
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      return `${name} must be at least ${schema.minLength} characters long`;
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      return `${name} must be at most ${schema.maxLength} characters long`;
    }
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) {
      return `${name} must match ${schema.pattern}`;
    }
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return `${name} must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${name} must be at most ${schema.maximum}`;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
      return `${name} must be more than ${schema.exclusiveMinimum}`;
    }
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) {
      return `${name} must be less than ${schema.exclusiveMaximum}`;
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      return `${name} must have at least ${schema.minItems} items`;
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      return `${name} must have at most ${schema.maxItems} items`;
    }
    if (schema.items !== undefined) {
      for (let i = 0; i < value.length; i++) {
        const problem = check(schema.items, value[i], `${path}[${i}]`);
        if (problem !== undefined) return problem;
      }
    }
  }
  if (isType("object", value)) {
    const obj = value as { readonly [key: string]: unknown };
    const at = (key: string): string => (path === "" ? key : `${path}.${key}`);
    const required = schema.required ?? [];
    for (const key of required) {
      if (!Object.hasOwn(obj, key)) return `argument "${at(key)}" is missing`;
    }
    for (const [key, v] of Object.entries(obj)) {
      if (v === null && !required.includes(key)) continue;
      const sub =
        schema.properties !== undefined && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (sub !== undefined) {
        const problem = check(sub, v, at(key));
        if (problem !== undefined) return problem;
      } else if (schema.additionalProperties === false) {
        return `argument "${at(key)}" is not a known argument`;
      } else if (typeof schema.additionalProperties === "object") {
        const problem = check(schema.additionalProperties, v, at(key));
        if (problem !== undefined) return problem;
      }
    }
  }
  return undefined;
}
