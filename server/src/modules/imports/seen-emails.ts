/**
 * The addresses already seen in one import file, in bounded memory: an open-addressing table of 64-bit hashes
 * (two independent 32-bit FNV-1a variants) in typed arrays — about 16 MB for a million addresses instead of
 * ~170 MB for a Set of strings. Two different addresses share a 64-bit hash with probability ~n²/2⁶⁵ (about
 * 3 in 100 million for a 1M-row file); such a row would be reported as a duplicate.
 */
export class SeenEmails {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private size = 0;

  constructor(initialCapacity = 1 << 16) {
    this.hi = new Uint32Array(initialCapacity);
    this.lo = new Uint32Array(initialCapacity);
  }

  /** Adds the address; false when it was already there. */
  add(email: string): boolean {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193 ^ email.length;
    for (let i = 0; i < email.length; i++) {
      const c = email.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 = (h1 | 1) >>> 0; // 0 marks an empty slot
    h2 >>>= 0;
    if ((this.size + 1) * 2 > this.hi.length) this.grow();
    return this.insert(h1, h2);
  }

  private insert(h1: number, h2: number): boolean {
    const mask = this.hi.length - 1;
    let slot = (h2 ^ Math.imul(h1, 0x9e3779b1)) & mask;
    for (;;) {
      const cur = this.hi[slot] as number;
      if (cur === 0) {
        this.hi[slot] = h1;
        this.lo[slot] = h2;
        this.size++;
        return true;
      }
      if (cur === h1 && this.lo[slot] === h2) return false;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const { hi, lo } = this;
    this.hi = new Uint32Array(hi.length * 2);
    this.lo = new Uint32Array(lo.length * 2);
    this.size = 0;
    for (let i = 0; i < hi.length; i++) if (hi[i] !== 0) this.insert(hi[i] as number, lo[i] as number);
  }
}
