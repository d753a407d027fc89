import { describe, expect, it } from 'vitest';
import { hasPrefix, newId } from '../../src/domain/ids.js';
import { generateKeySecret, hashKeySecret, KEY_PREFIX_LENGTH, keyModeOf, keyPrefix } from '../../src/domain/keys.js';

// A ULID in lower case: Crockford base32 (no i, l, o, u), 26 characters.
const ULID_LOWER = '[0-9a-hjkmnp-tv-z]{26}';

describe('newId (docs/decisions.md#identifiers: type prefix, sorted by creation time)', () => {
  it('docs/decisions.md#identifiers: doc_ followed by 26 lowercase base32 characters', () => {
    const id = newId('doc');
    expect(id).toMatch(new RegExp(`^doc_${ULID_LOWER}$`));
    expect(id).toHaveLength(30);
    expect(hasPrefix(id, 'doc')).toBe(true);
    expect(hasPrefix(id, 'qry')).toBe(false);
  });

  it('docs/decisions.md#identifiers: every prefix', () => {
    for (const prefix of ['doc', 'qry', 'img', 'usg', 'key', 'org', 'ws'] as const) {
      const id = newId(prefix);
      expect(id).toMatch(new RegExp(`^${prefix}_${ULID_LOWER}$`));
      expect(hasPrefix(id, prefix)).toBe(true);
    }
  });

  it('hasPrefix checks the length too', () => {
    expect(hasPrefix('doc_', 'doc')).toBe(false);
    expect(hasPrefix(`${newId('doc')}x`, 'doc')).toBe(false);
  });

  it('docs/decisions.md#identifiers: ids made in a tight loop are distinct and sort in creation order as strings', () => {
    const ids = Array.from({ length: 5000 }, () => newId('doc'));
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
    for (let i = 1; i < ids.length; i++) expect(ids[i - 1] < ids[i]).toBe(true);
  });
});

describe('API keys (docs/api.md Authentication; docs/decisions.md#administration)', () => {
  it('live and test secrets carry their prefix and 32 base62 characters', () => {
    for (const mode of ['live', 'test'] as const) {
      for (let i = 0; i < 50; i++) {
        const secret = generateKeySecret(mode);
        expect(secret).toMatch(new RegExp(`^ak_${mode}_[0-9A-Za-z]{32}$`));
        expect(secret).toHaveLength(8 + 32);
        expect(keyModeOf(secret)).toBe(mode);
      }
    }
  });

  it('secrets differ', () => {
    const secrets = new Set(Array.from({ length: 200 }, () => generateKeySecret('live')));
    expect(secrets.size).toBe(200);
  });

  it('keyModeOf refuses other prefixes', () => {
    expect(keyModeOf('sk_live_abc')).toBeNull();
    expect(keyModeOf('ak_prod_abc')).toBeNull();
  });

  it('the hash is 64 hex characters and stable', () => {
    const secret = generateKeySecret('test');
    const hash = hashKeySecret(secret);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKeySecret(secret)).toBe(hash);
    expect(hashKeySecret(generateKeySecret('test'))).not.toBe(hash);
    // SHA-256 of "abc".
    expect(hashKeySecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('docs/decisions.md#administration: the shown prefix is the first 12 characters', () => {
    const secret = generateKeySecret('live');
    expect(KEY_PREFIX_LENGTH).toBe(12);
    expect(keyPrefix(secret)).toHaveLength(12);
    expect(keyPrefix(secret)).toBe(secret.slice(0, 12));
    expect(keyPrefix(secret).startsWith('ak_live_')).toBe(true);
  });
});
