// The generator's only source of chance: a small seeded generator (sfc32, seeded by splitmix32), so
// the same seed and index always draw the same document. Each document draws from its own stream
// (`forDocument`), so changing how one document is drawn never moves the others.

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.float();
  }

  /** The stream of document `index` of `seed`. */
  static forDocument(seed: number, index: number): Random {
    return new Random((Math.imul(seed >>> 0, 0x27d4eb2d) ^ Math.imul(index + 1, 0x165667b1)) >>> 0);
  }

  /**
   * A stream of its own, seeded from this one's state without drawing from it: a variation added
   * to the generator draws from a fork, so the documents every seed drew before stay as they were.
   */
  fork(salt: number): Random {
    return new Random((this.a ^ Math.imul(this.b, 31) ^ Math.imul(this.c, 17) ^ this.d ^ Math.imul(salt, 0x9e3779b9)) >>> 0);
  }

  /** In [0, 1). */
  float(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** A number in [min, max). */
  between(min: number, max: number): number {
    return min + this.float() * (max - min);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /** One of `choices`, each as likely as its weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let at = this.float() * total;
    for (const [value, weight] of choices) {
      at -= weight;
      if (at < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}
