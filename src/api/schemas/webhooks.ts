// Wire shapes of webhooks (docs/api.md, Webhook): the request that creates one, the Webhook, and
// the delivery attempts listed for it. Each is used to validate, to serialize and in the OpenAPI
// document; the event a webhook receives is a domain shape (domain/resource-shapes.ts), since
// workers build it.
import { Type, type Static } from 'typebox';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_TYPES } from '../../domain/webhooks.js';
import { WebhookEvent } from '../../domain/resource-shapes.js';
import { DateTime, Nullable, StringEnum } from '../../domain/wire.js';

const EventType = StringEnum(WEBHOOK_EVENT_TYPES);

export const CreateWebhook = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: MAX_WEBHOOK_URL_LENGTH, description: 'http or https, on a public address.' }),
    events: Type.Array(EventType, { minItems: 1, uniqueItems: true, description: 'The event types to receive.' }),
  },
  { additionalProperties: false },
);
export type CreateWebhook = Static<typeof CreateWebhook>;

export const Webhook = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('webhook'),
    url: Type.String(),
    events: Type.Array(EventType),
    secret: Type.Optional(
      Type.String({ description: 'Only in the answer that creates it: the key of the Folio-Signature HMAC. Folio shows it never again.' }),
    ),
    created_at: DateTime,
  },
  { $id: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

export const WebhookAttempt = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('webhook_attempt'),
    delivery_id: Type.String({ description: 'The event on its way to this webhook; every attempt at it shares this id.' }),
    event_id: Type.String(),
    type: EventType,
    attempt: Type.Integer({ minimum: 1 }),
    status_code: Nullable(Type.Integer(), { description: "The receiver's HTTP status; null when no answer came." }),
    error: Nullable(Type.String(), { description: 'What went wrong, in a sentence; null on a 2xx.' }),
    response_excerpt: Nullable(Type.String(), { description: "The first 200 characters of the receiver's answer; the rest is not kept." }),
    duration_ms: Type.Integer(),
    attempted_at: DateTime,
    delivered_at: Nullable(DateTime, { description: 'When the 2xx came; null unless this attempt delivered the event.' }),
    next_attempt_at: Nullable(DateTime, { description: 'When the event is tried again; null once delivered or given up.' }),
  },
  { $id: 'WebhookAttempt' },
);
export type WebhookAttempt = Static<typeof WebhookAttempt>;

/** Registered with the server after the shapes they refer to (WebhookEvent names DocumentListItem and Query). */
export const WEBHOOK_SCHEMAS = [WebhookEvent, Webhook, WebhookAttempt];
