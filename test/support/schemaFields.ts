// "Every declared field is checked": for a documented payload, each field the schema declares, given
// a value of no JSON type, makes the payload refused, down through nested objects and the first
// element of lists. A schema whose nested object lost its fields (`{}` where `{ id, name }` was)
// passes every fixture and fails here.
import assert from 'node:assert/strict';
import * as z from 'zod';

/** A value no field type takes (fields typed `unknown` take it, and are skipped). */
const WRONG = Symbol('a value of no JSON type');

/** The schema inside optional, nullable, default and preprocess wrappers. */
function unwrapped(type: z.ZodType): z.ZodType {
  let inner: z.ZodType = type;
  for (;;) {
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault)
      inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodPipe) inner = inner.def.out as z.ZodType;
    else return inner;
  }
}

/** The object schema's fields, or undefined for other types. */
export function objectShape(type: z.ZodType): Record<string, z.ZodType> | undefined {
  const inner = unwrapped(type);
  return inner instanceof z.ZodObject ? inner.shape : undefined;
}

function elementType(type: z.ZodType): z.ZodType | undefined {
  const inner = unwrapped(type);
  return inner instanceof z.ZodArray ? (inner.element as z.ZodType) : undefined;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * For each field the schema declares and the sample has: the sample with that field of the wrong
 * type is refused by `rootSchema`. Recurses into nested objects (and the first element of lists of
 * objects), and asserts that each nested object schema checks at least one of the sample's fields.
 * Returns how many fields of this level were checked.
 */
export function assertFieldsChecked(
  rootSchema: z.ZodType,
  schema: z.ZodType,
  sample: Record<string, unknown>,
  wrap: (inner: Record<string, unknown>) => unknown = (inner) => inner,
  path = '',
  /** Nested objects (by path, `project`) whose documented payload has none of the fields the schema reads. */
  sentNone: ReadonlySet<string> = new Set(),
): number {
  const shape = objectShape(schema);
  assert.ok(shape, `${path || 'the payload'} is read by an object schema`);
  let checked = 0;
  for (const [key, field] of Object.entries(shape)) {
    if (!(key in sample) || field.safeParse(WRONG).success) continue;
    const broken = wrap({ ...sample, [key]: WRONG });
    assert.equal(rootSchema.safeParse(broken).success, false, `${path}${key} of the wrong type is refused`);
    checked++;
    const value = sample[key];
    const rewrap = (inner: unknown) => wrap({ ...sample, [key]: inner });
    // An object the schema reads as nothing (a position that names no place) has no fields to check.
    const readAsSomething = field.safeParse(value).data != null;
    if (isRecord(value) && Object.keys(value).length > 0 && objectShape(field) && readAsSomething) {
      const nested = assertFieldsChecked(rootSchema, field, value, rewrap, `${path}${key}.`, sentNone);
      if (!sentNone.has(`${path}${key}`))
        assert.ok(nested > 0, `${path}${key}: its schema checks none of the fields the server sent`);
    }
    const element = elementType(field);
    const first: unknown = Array.isArray(value) ? value[0] : undefined;
    if (element && isRecord(first) && Object.keys(first).length > 0 && objectShape(element)) {
      const rest = (value as unknown[]).slice(1);
      const nested = assertFieldsChecked(
        rootSchema,
        element,
        first,
        (inner) => rewrap([inner, ...rest]),
        `${path}${key}[0].`,
        sentNone,
      );
      assert.ok(nested > 0, `${path}${key}[0]: its schema checks none of the fields the server sent`);
    }
  }
  return checked;
}

/** The element schema of a list schema, or the schema itself. */
export function itemSchema(schema: z.ZodType): z.ZodType {
  return elementType(schema) ?? schema;
}
