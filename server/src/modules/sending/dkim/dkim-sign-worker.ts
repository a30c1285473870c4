/**
 * A signing thread of the DKIM signing pool (signing-pool.ts): receives chunks of messages with the signers to
 * apply, signs each exactly as the main thread would (createDkimSigner, the same code), and answers only the
 * DKIM-Signature header lines to prepend — the message bytes stay on the main thread.
 */
import { parentPort } from 'node:worker_threads';
import { chainSignatureHeaders, createDkimSigner, type DkimSigner, type DkimSignerSpec } from './dkim-signer';

export interface SignChunk {
  id: number;
  /** Signers new to this thread, by the id the pool gave them. */
  specs: Array<{ id: number; spec: DkimSignerSpec }>;
  /** The signers to apply, in order (as `raw = signer.sign(raw)` one after another). */
  signerIds: number[];
  /** The signing time of the chunk (`t=`, milliseconds), taken from the signers' clock on the main thread. */
  nowMs: number;
  /** The chunk's messages one after another (transferred, not copied), and the length of each. */
  bytes: ArrayBuffer;
  lengths: number[];
}

export interface SignedChunk {
  id: number;
  /** Per message, the header lines to prepend (latin1), or the error that stopped it. */
  prefixes: string[];
  error?: string;
}

const signers = new Map<number, DkimSigner>();
let clock = Date.now();

parentPort?.on('message', (chunk: SignChunk) => {
  try {
    for (const { id, spec } of chunk.specs) signers.set(id, createDkimSigner({ ...spec, now: () => clock }));
    clock = chunk.nowMs;
    const chain = chunk.signerIds.map((id) => {
      const signer = signers.get(id);
      if (!signer) throw new Error(`signing thread: unknown signer ${id}`);
      return signer;
    });
    let offset = 0;
    const prefixes = chunk.lengths.map((length) => {
      const raw = Buffer.from(chunk.bytes, offset, length);
      offset += length;
      return chainSignatureHeaders(chain, raw);
    });
    parentPort?.postMessage({ id: chunk.id, prefixes } satisfies SignedChunk);
  } catch (error) {
    parentPort?.postMessage({ id: chunk.id, prefixes: [], error: String(error) } satisfies SignedChunk);
  }
});
