// The built-in embedding and the embedding rules (issue 9; docs/api.md EmbeddingOptions and Limits):
// unit vectors of the chosen length, the same for the same text, 512 and 256 as folds of 1024,
// shared words and word parts bring texts together, and the input stops at 20,000 bytes without
// cutting a character.
import { describe, expect, it } from 'vitest';
import { EMBEDDING_INPUT_BYTES, embeddingInput, packEmbedding, unpackEmbedding } from '../../src/domain/embedding.js';
import { BUILTIN_EMBEDDING_MODEL, embedText, fullVector, reduce } from '../../src/models/embeddings/builtin.js';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i], 0);

describe('built-in embedding', () => {
  it('gives unit vectors of 1024, 512 and 256 numbers, the same every time', () => {
    for (const dimensions of [1024, 512, 256] as const) {
      const vector = embedText('The invoice total is due within 30 days.', dimensions);
      expect(vector).toHaveLength(dimensions);
      expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 5);
      expect(embedText('The invoice total is due within 30 days.', dimensions)).toEqual(vector);
    }
  });

  it('folds 1024 into 512 and 256: one space at three resolutions', () => {
    const full = fullVector('Row and column access control protects rows with permissions and columns with masks.');
    const small = reduce(full, 256);
    const viaMiddle = reduce(Float64Array.from(reduce(full, 512)), 256);
    viaMiddle.forEach((v, i) => expect(v).toBeCloseTo(small[i], 6));
  });

  it('brings together texts that share words and parts of words, in any of the four languages', () => {
    const invoice = embedText('Invoice for consulting services, total due in 30 days', 1024);
    const invoices = embedText('All invoices list the consulting services delivered', 1024);
    const plants = embedText('Green plants turn sunlight into sugar', 1024);
    expect(cosine(invoice, invoices)).toBeGreaterThan(cosine(invoice, plants) + 0.15);
    const rechnung = embedText('Die Rechnung ist innerhalb von 30 Tagen zu zahlen', 1024);
    const rechnungen = embedText('Alle Rechnungen werden per Überweisung gezahlt', 1024);
    expect(cosine(rechnung, rechnungen)).toBeGreaterThan(cosine(rechnung, plants));
    // Accents and case do not keep equal words apart.
    expect(cosine(embedText('Überweisung', 256), embedText('UBERWEISUNG', 256))).toBeCloseTo(1, 5);
  });

  it('gives a page without words a vector of zeros, and names itself honestly', () => {
    expect([...embedText('', 256)].every((v) => v === 0)).toBe(true);
    expect(BUILTIN_EMBEDDING_MODEL).toMatch(/hashed-ngrams/);
  });
});

describe('embedding input and storage', () => {
  it('takes at most the first 20,000 bytes of a page, never half a character', () => {
    expect(embeddingInput('short page')).toBe('short page');
    const ascii = 'a'.repeat(25_000);
    expect(embeddingInput(ascii)).toHaveLength(EMBEDDING_INPUT_BYTES);
    // 'é' is two bytes: 19,999 bytes of 'a' then 'é' would cross the limit, so it is left out.
    const mixed = `${'a'.repeat(19_999)}é${'b'.repeat(10)}`;
    expect(embeddingInput(mixed)).toBe('a'.repeat(19_999));
    const wide = '€'.repeat(10_000); // three bytes each
    const cut = embeddingInput(wide);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(EMBEDDING_INPUT_BYTES);
    expect(cut).toBe('€'.repeat(6_666));
  });

  it('stores a vector compactly and serves it back as numbers', () => {
    const vector = embedText('stored and served', 256);
    const stored = packEmbedding({ model: BUILTIN_EMBEDDING_MODEL, dimensions: 256, vector });
    const served = unpackEmbedding(stored);
    expect(served).toMatchObject({ model: BUILTIN_EMBEDDING_MODEL, dimensions: 256 });
    served.vector.forEach((v, i) => expect(v).toBeCloseTo(vector[i], 6));
  });
});
