/**
 * A small seeded pseudo-random generator (sfc32 seeded through xmur3), so that the fake forge's data,
 * tokens, traces and artifacts are the same on every run. Never use Math.random in the fake forge.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    const hash = xmur3(String(seed));
    this.a = hash();
    this.b = hash();
    this.c = hash();
    this.d = hash();
    // Warm up: the first outputs of sfc32 are poorly mixed.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A new generator whose sequence depends on this one's seed and the label, not on how far this one has run. */
  static derive(seed: string | number, label: string | number): Prng {
    return new Prng(`${seed}/${label}`);
  }

  nextUint32(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.nextUint32().toString(16).padStart(8, '0');
    return out.slice(0, length);
  }

  alphanumeric(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.nextUint32() % alphabet.length];
    return out;
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i += 4) {
      const word = this.nextUint32();
      out[i] = word & 0xff;
      if (i + 1 < length) out[i + 1] = (word >>> 8) & 0xff;
      if (i + 2 < length) out[i + 2] = (word >>> 16) & 0xff;
      if (i + 3 < length) out[i + 3] = (word >>> 24) & 0xff;
    }
    return out;
  }
}

function xmur3(text: string): () => number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return h >>> 0;
  };
}
