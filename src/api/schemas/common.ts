// Building blocks shared by the wire shapes. Every schema here is plain JSON Schema (TypeBox),
// used three ways: request validation, response serialization and the OpenAPI document.
import { Type, type TSchema } from 'typebox';

export const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A string enum with `type: string`, which serializers and OpenAPI readers both prefer. */
export const StringEnum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Enum(values as unknown as T[number][], { type: 'string', ...(description ? { description } : {}) });

export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        type: Type.String(),
        message: Type.String(),
      },
      { additionalProperties: true, description: 'Extra fields depend on the type (SPEC.md, Errors).' },
    ),
  },
  { $id: 'Error' },
);

export const ErrorRef = Type.Ref('Error');

/** Response map entries for the error statuses a route can answer with. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorRef]));
}

export const ListQuery = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  starting_after: Type.String({ minLength: 1, maxLength: 64 }),
};
