// How much JSON a client may send. Whatever walks a value (a JSON parser, a schema compiler, a
// serializer, the idempotency hash) recurses once per level of nesting, so a value nested a few
// thousand levels deep overflows the stack wherever it is first walked: in the API as a 500, or
// in a worker, again on every retry. The API refuses such values at submission, before anything
// walks them, with the field that broke the limit; nothing past these checks is deep enough to
// hurt. README "Money, limits and lifetime" lists the numbers.

/** Nesting of arrays and objects in a JSON request body or in the upload form's `options`. */
export const MAX_JSON_DEPTH = 128;
/** Nesting of arrays and objects in an extraction or query schema (its outer object is level 1). */
export const MAX_SCHEMA_DEPTH = 32;
/** Property names a schema declares, counted over every `properties` object in it. */
export const MAX_SCHEMA_PROPERTIES = 1000;
/** A schema's size as compact JSON, in UTF-8 bytes. */
export const MAX_SCHEMA_BYTES = 100_000;
/** What `details` says of a value holding U+0000. */
export const NUL_REFUSED = 'contains a NUL character (\\u0000), which Folio does not store';

/**
 * The deepest nesting of arrays and objects in JSON text, read character by character without
 * parsing (so without recursion); stops counting once past `stopAbove`. Text that is not JSON
 * still gets a number, and the parser refuses it after.
 */
export function jsonTextDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Whether any string in a parsed value, keys included, holds U+0000. JSON may carry it (`\u0000`)
 * but PostgreSQL text cannot store it, so such a value is refused on both stores alike.
 */
export function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined || stack.length; item = stack.pop()) {
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      // One by one: spreading a long array into push's arguments overflows the stack itself.
      for (const child of item) stack.push(child);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** Nesting depth of a parsed value (a scalar is 0, `{}` is 1) and the property names it declares. */
function shapeOf(value: unknown): { depth: number; properties: number } {
  let deepest = 0;
  let properties = 0;
  const stack: { value: unknown; depth: number; isProperties: boolean }[] = [{ value, depth: 1, isProperties: false }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    deepest = Math.max(deepest, item.depth);
    if (deepest > MAX_SCHEMA_DEPTH) break;
    const entries = Array.isArray(item.value) ? item.value.map((v) => ['', v] as const) : Object.entries(item.value);
    if (item.isProperties) properties += entries.length;
    for (const [key, child] of entries) stack.push({ value: child, depth: item.depth + 1, isProperties: key === 'properties' && !Array.isArray(item.value) });
  }
  return { depth: deepest, properties };
}

/** What is wrong with a client's schema against the limits above; empty when nothing is. */
export function schemaLimitProblems(schema: unknown): string[] {
  const { depth, properties } = shapeOf(schema);
  if (depth > MAX_SCHEMA_DEPTH) return [`is nested more than ${MAX_SCHEMA_DEPTH} levels deep`];
  const problems: string[] = [];
  if (properties > MAX_SCHEMA_PROPERTIES) problems.push(`declares ${properties} properties; at most ${MAX_SCHEMA_PROPERTIES} are allowed`);
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > MAX_SCHEMA_BYTES) problems.push(`is ${bytes} bytes as JSON; at most ${MAX_SCHEMA_BYTES} are allowed`);
  return problems;
}
