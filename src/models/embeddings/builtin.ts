// The built-in embedding: no network and no weights. A page's words, their character n-grams and
// neighbouring word pairs are counted (sublinear in their repeats), each feature is hashed with a
// fixed seed to two signed coordinates of a 1024-long vector (a sparse random projection, the
// hashing trick), and the vector is made unit length. It captures shared words and shared parts
// of words ("invoice"/"invoices", "Rechnung"/"Rechnungen"), not meaning: pages about the same
// thing in other words do not come out close. 512 and 256 are the same vector folded (coordinate
// i is the sum of coordinates i, i+512, ... of the 1024 one), so the three lengths describe one
// space at three resolutions, and the same text always gives the same vector.
import type { EmbeddingDimensions, EmbeddingProvider } from './types.js';

export const BUILTIN_EMBEDDING_MODEL = 'folio-hashed-ngrams-1';

const FULL_DIMENSIONS = 1024;
/** Fixed for ever: a new seed would make every stored vector incomparable with new ones. */
const SEED = 0x0f0110;
const PROJECTIONS_PER_FEATURE = 2;

/** How much each kind of feature counts once each kind is unit length. */
const FAMILY_WEIGHTS = { word: 1, gram: 0.8, pair: 0.5 } as const;
type Family = keyof typeof FAMILY_WEIGHTS;

/** Words that say little about a page in the four OCR languages; they count a tenth. */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its my no not of on or our she so that the their them ' +
    'there these they this to was we were what when where which who why will with you your how do does did can could should would ' +
    'der die das und ist ein eine einer eines dem den des im in zu mit von auf für nicht sich es als auch an bei oder wie was wer ' +
    'le la les un une des du de et est en au aux que qui dans pour par sur pas ne se ce il elle ou quel quelle ' +
    'el los las unos unas y es en que del al por para con no se lo como su sus cual qué'
  ).split(' '),
);

/** Lower case, accents off, compatibility forms folded: the words as compared. */
function tokens(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** FNV-1a over UTF-16 code units, finished with MurmurHash3's mixer so low bits are well spread. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function features(text: string): Record<Family, Map<string, number>> {
  const found: Record<Family, Map<string, number>> = { word: new Map(), gram: new Map(), pair: new Map() };
  const add = (family: Family, feature: string, weight: number) => found[family].set(feature, (found[family].get(feature) ?? 0) + weight);
  let previous: string | null = null;
  for (const token of tokens(text)) {
    const stop = STOPWORDS.has(token);
    add('word', token, stop ? 0.1 : 1);
    if (stop) {
      previous = null;
      continue;
    }
    if (token.length >= 3 && !/^\p{N}+$/u.test(token)) {
      const marked = `<${token}>`;
      for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= marked.length; i++) add('gram', marked.slice(i, i + n), 1);
    }
    if (previous) add('pair', `${previous} ${token}`, 1);
    previous = token;
  }
  return found;
}

/** The unnormalised 1024-long vector of a text. */
export function fullVector(text: string): Float64Array {
  const vector = new Float64Array(FULL_DIMENSIONS);
  const family = new Float64Array(FULL_DIMENSIONS);
  for (const [name, counts] of Object.entries(features(text)) as [Family, Map<string, number>][]) {
    family.fill(0);
    for (const [feature, count] of counts) {
      // Sublinear: a word said ten times is not ten times as telling.
      const weight = count >= 1 ? 1 + Math.log(count) : count;
      for (let k = 0; k < PROJECTIONS_PER_FEATURE; k++) {
        const h = hash(`${name}:${feature}`, SEED + k);
        family[h % FULL_DIMENSIONS] += h & 0x80000000 ? -weight : weight;
      }
    }
    let squares = 0;
    for (const v of family) squares += v * v;
    const norm = Math.sqrt(squares);
    if (norm > 0) for (let i = 0; i < FULL_DIMENSIONS; i++) vector[i] += (FAMILY_WEIGHTS[name] * family[i]) / norm;
  }
  return vector;
}

/** The 1024-long vector folded to `dimensions` and made unit length (zeros for a text with no words). */
export function reduce(full: Float64Array, dimensions: EmbeddingDimensions): Float32Array {
  const folded = new Float64Array(dimensions);
  for (let i = 0; i < full.length; i++) folded[i % dimensions] += full[i];
  let norm = 0;
  for (const v of folded) norm += v * v;
  norm = Math.sqrt(norm);
  const out = new Float32Array(dimensions);
  if (norm > 0) for (let i = 0; i < dimensions; i++) out[i] = folded[i] / norm;
  return out;
}

export function embedText(text: string, dimensions: EmbeddingDimensions): Float32Array {
  return reduce(fullVector(text), dimensions);
}

export class BuiltinEmbedding implements EmbeddingProvider {
  readonly name = 'builtin';
  readonly model = BUILTIN_EMBEDDING_MODEL;

  async embed(texts: readonly string[], dimensions: EmbeddingDimensions): Promise<Float32Array[]> {
    return texts.map((text) => embedText(text, dimensions));
  }
}
