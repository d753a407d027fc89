// What a failed JSON Schema check says to a client, in Folio's words. The validator's own messages
// ("must NOT have duplicate items (items ## 1 and 0 are identical)", 'must match format "uri"')
// describe its internals; every keyword a Folio or client schema can fail is worded here, and one
// Folio has no words for says only that the value is not valid.

/** The part of a validator's error that the words depend on (Ajv's ErrorObject has these). */
export interface FailedCheck {
  keyword: string;
  params: Record<string, unknown>;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_WORDS: Record<string, string> = {
  uri: 'an absolute URL',
  'uri-reference': 'a URL',
  url: 'an absolute URL',
  'date-time': 'a date and time as RFC 3339 writes them (2026-01-31T12:00:00Z)',
  date: 'a date written YYYY-MM-DD',
  time: 'a time written HH:MM:SS',
  email: 'an e-mail address',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  hostname: 'a host name',
  regex: 'a regular expression',
};

function plural(n: unknown, one: string, many = `${one}s`): string {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

function typeWords(type: unknown): string {
  const types = (Array.isArray(type) ? type : String(type).split(',')).map((t) => String(t).trim());
  // "true, false or an object" rather than "true or false or an object".
  const names = types.map((t) => (types.length > 1 && t === 'boolean' ? 'true, false' : (TYPE_WORDS[t] ?? t)));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
}

/** The sentence, after the field's name, that says what is wrong with its value. */
export function failedCheckWords(check: FailedCheck): string {
  const p = check.params ?? {};
  switch (check.keyword) {
    case 'type':
      return `must be ${typeWords(p.type)}`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
      return `must be one of: ${((p.allowedValues as unknown[]) ?? []).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'minLength':
      return `must be at least ${plural(p.limit, 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(p.limit, 'character')} long`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const comparison = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' }[String(p.comparison)] ?? 'within its bounds, not';
      return `must be ${comparison} ${p.limit}`;
    }
    case 'multipleOf':
      return `must be a multiple of ${p.multipleOf}`;
    case 'minItems':
      return `must hold at least ${plural(p.limit, 'item')}`;
    case 'maxItems':
      return `must hold at most ${plural(p.limit, 'item')}`;
    case 'uniqueItems':
      return `must not list the same item twice (items ${p.j} and ${p.i} are the same)`;
    case 'minProperties':
      return `must have at least ${plural(p.limit, 'field')}`;
    case 'maxProperties':
      return `must have at most ${plural(p.limit, 'field')}`;
    case 'format':
      return `must be ${FORMAT_WORDS[String(p.format)] ?? `written as a ${p.format}`}`;
    case 'pattern':
      return 'is not written in the expected form';
    case 'propertyNames':
      return `has a field name that is not allowed (${JSON.stringify(p.propertyName)})`;
    case 'dependentRequired':
    case 'dependencies':
      return `needs "${p.missingProperty}" as well, since it has "${p.property}"`;
    case 'contains':
    case 'minContains':
    case 'maxContains':
      return 'does not hold the items it must';
    case 'anyOf':
      return 'matches none of the allowed forms';
    case 'oneOf':
      return p.passingSchemas ? 'matches more than one of the allowed forms' : 'matches none of the allowed forms';
    case 'not':
      return 'is a value that is not allowed here';
    case 'if':
      return 'does not meet the condition its schema sets';
    case 'false schema':
      return 'is not allowed here';
    default:
      return 'is not valid';
  }
}
