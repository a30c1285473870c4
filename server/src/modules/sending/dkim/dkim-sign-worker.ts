/**
 * A signing thread of the DKIM signing pool (signing-pool.ts): receives chunks of messages with the signers to
 * apply and signs each exactly as the main thread would (createDkimSigner, the same code). Each message comes
 * with room in front of it; the thread writes the message's DKIM-Signature lines there, right before its first
 * byte, and hands the chunk back — the signed messages are views of it, so signing copies no message again.
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
  /**
   * The chunk's messages one after another (transferred, not copied), each preceded by `headroom` bytes for its
   * signature lines; `lengths` are the messages' own lengths.
   */
  bytes: ArrayBuffer;
  lengths: number[];
  headroom: number;
}

export interface SignedChunk {
  id: number;
  /** The chunk's bytes back (transferred), each message's signature lines written in its headroom. */
  bytes?: ArrayBuffer;
  /**
   * Per message, where its signed form starts in `bytes` (its signature lines, then the message), or, when its
   * lines were longer than the headroom, where the message itself starts and `overflow[i]` holds the lines.
   */
  starts: number[];
  overflow: Record<number, string>;
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
    const bytes = Buffer.from(chunk.bytes);
    const starts: number[] = [];
    const overflow: Record<number, string> = {};
    let offset = 0;
    chunk.lengths.forEach((length, i) => {
      const start = offset + chunk.headroom;
      const prefix = chainSignatureHeaders(chain, bytes.subarray(start, start + length));
      // Latin1: one byte per character.
      if (prefix.length <= chunk.headroom) {
        bytes.write(prefix, start - prefix.length, 'latin1');
        starts.push(start - prefix.length);
      } else {
        starts.push(start);
        overflow[i] = prefix;
      }
      offset = start + length;
    });
    parentPort?.postMessage({ id: chunk.id, bytes: chunk.bytes, starts, overflow } satisfies SignedChunk, [
      chunk.bytes,
    ]);
  } catch (error) {
    parentPort?.postMessage({ id: chunk.id, starts: [], overflow: {}, error: String(error) } satisfies SignedChunk);
  }
});
