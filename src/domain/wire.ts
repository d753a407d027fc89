// Building blocks of the wire shapes (TypeBox, so plain JSON Schema), shared by the shapes the
// domain owns (document options) and those the API adds (resources, errors): each shape is used
// for request validation, response serialization and the OpenAPI document.
import { Type, type TSchema } from 'typebox';

export const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' });

export const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) => Type.Union([schema, Type.Null()], options);

/** A string enum with `type: string`, which serializers and OpenAPI readers both prefer. */
export const StringEnum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Enum(values as unknown as T[number][], { type: 'string', ...(description ? { description } : {}) });
