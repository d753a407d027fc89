// Building blocks of the API's own wire shapes (errors, lists), beside the ones the domain
// shares (src/domain/wire.ts). Every schema here is plain JSON Schema (TypeBox), used three ways:
// request validation, response serialization and the OpenAPI document.
import { Type, type TSchema } from 'typebox';

export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        type: Type.String(),
        message: Type.String(),
      },
      { additionalProperties: true, description: 'Extra fields depend on the type (docs/api.md, Errors).' },
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
