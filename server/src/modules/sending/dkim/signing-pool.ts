/**
 * The DKIM signing pool: one worker process signs on every core it has. RSA-2048 costs ~0.3 ms of CPU per
 * signature, the largest single cost of a signed message, and a sender's main thread would sign on one core
 * whatever the machine has. The pool keeps N signing threads (default: the cores available to the process) and
 * signs a batch of messages by chunks spread over them, each thread running the same createDkimSigner code on the
 * same key — the output is byte for byte what `signer.sign` gives on the main thread with the same clock.
 *
 * The seam stays `DkimSigner`: the pool takes the signers the engine already chose for a campaign (platform or
 * sender domain keys, sender-identities/sender-signing.ts) and learns how to rebuild each one on a thread from
 * its spec (`dkimSignerSpec`). A signer that was not made by createDkimSigner signs on the calling thread.
 *
 * Memory: a batch in flight is the sender's largest allocation (lanes × batch size × ~14 KB). Each chunk's
 * messages are copied once into the buffer handed to a thread, with room in front of each for its signature
 * lines; the thread writes them there and hands the buffer back, and the signed messages are views of it. So the
 * built messages and the signed ones are the only two copies, and the built ones are garbage once signed —
 * prepending the lines on this thread would make a third copy of every batch.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../../threads/worker-entry';
import type { SignChunk, SignedChunk } from './dkim-sign-worker';
import { type DkimSigner, type DkimSignerSpec, dkimSignerSpec, prependHeaders, signChain } from './dkim-signer';

export interface DkimSigningPool {
  /** Signing threads. */
  readonly threads: number;
  /**
   * Each message signed by every signer in order — the result of `signers.reduce((raw, s) => s.sign(raw), raw)`
   * — computed on the pool's threads. Same order as `messages`.
   */
  signAll(signers: readonly DkimSigner[], messages: readonly Buffer[]): Promise<Buffer[]>;
  close(): Promise<void>;
}

export interface SigningPoolOptions {
  /** Signing threads; default the number of cores this process may use. */
  threads?: number;
  /** Messages per chunk handed to a thread (small enough to balance, large enough to amortise a message hop). */
  chunkSize?: number;
  /** Bytes left in front of each message, per signer, for its signature lines; default SIGNATURE_ROOM. */
  signatureRoom?: number;
}

const ENTRY = workerEntry(import.meta.url, 'dkim-sign-worker', new URL('./dkim-sign-worker.ts', import.meta.url));

interface Thread {
  worker: Worker;
  /** Signer ids this thread has the spec of. */
  known: Set<number>;
  busy: number;
}

/**
 * Room left in front of each message for the signature lines of each signer: with the default header list and a
 * short domain, an RSA-2048 DKIM-Signature is ~640 bytes, an Ed25519 one ~380, an RSA-4096 one ~1,000. Longer
 * lines (a larger key, long names) are prepended on the calling thread instead, a copy of that message.
 */
const SIGNATURE_ROOM = 1024;

interface Pending {
  resolve: (signed: Buffer[]) => void;
  reject: (error: Error) => void;
  thread: Thread;
  /** The chunk's message lengths and headroom, to find each signed message in the bytes handed back. */
  lengths: number[];
  headroom: number;
}

/**
 * The signed messages of a chunk the thread handed back: views of its bytes (each from its signature lines to the
 * end of the message), or a copy when a message's lines did not fit in its headroom.
 */
function signedViews(reply: SignedChunk, lengths: readonly number[], headroom: number): Buffer[] {
  const bytes = Buffer.from(reply.bytes as ArrayBuffer);
  let end = 0;
  return lengths.map((length, i) => {
    end += headroom + length;
    const start = reply.starts[i] as number;
    const lines = reply.overflow[i];
    return lines === undefined ? bytes.subarray(start, end) : prependHeaders(lines, bytes.subarray(start, end));
  });
}

export function createDkimSigningPool(options: SigningPoolOptions = {}): DkimSigningPool {
  const size = Math.max(1, options.threads ?? availableParallelism());
  const chunkSize = Math.max(1, options.chunkSize ?? 16);
  const signatureRoom = Math.max(0, options.signatureRoom ?? SIGNATURE_ROOM);
  const ids = new WeakMap<DkimSigner, number>();
  let nextSignerId = 1;
  let nextChunkId = 1;
  const pending = new Map<number, Pending>();
  let closed = false;

  const spawn = (): Thread => {
    const worker = new Worker(ENTRY.entry, { workerData: ENTRY.workerData });
    const thread: Thread = { worker, known: new Set(), busy: 0 };
    worker.unref();
    worker.on('message', (reply: SignedChunk) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      thread.busy--;
      if (thread.busy === 0) worker.unref();
      if (reply.error || !reply.bytes) waiting.reject(new Error(reply.error ?? 'DKIM signing thread: no bytes'));
      else waiting.resolve(signedViews(reply, waiting.lengths, waiting.headroom));
    });
    // A thread that dies fails its chunks (the engine treats the batch as not built and retries it) and is
    // replaced for the next ones.
    const lose = (error: Error) => {
      for (const [id, waiting] of pending) {
        if (waiting.thread !== thread) continue;
        pending.delete(id);
        waiting.reject(error);
      }
      const index = threads.indexOf(thread);
      if (index >= 0 && !closed) threads[index] = spawn();
    };
    worker.on('error', lose);
    worker.on('exit', (code) => {
      if (!closed) lose(new Error(`DKIM signing thread exited (${code})`));
    });
    return thread;
  };
  const threads: Thread[] = Array.from({ length: size }, spawn);

  const idOf = (signer: DkimSigner): number => {
    let id = ids.get(signer);
    if (id === undefined) {
      id = nextSignerId++;
      ids.set(signer, id);
    }
    return id;
  };

  const send = (thread: Thread, chunk: Omit<SignChunk, 'id' | 'specs'>, specs: SignChunk['specs']) =>
    new Promise<Buffer[]>((resolve, reject) => {
      const id = nextChunkId++;
      pending.set(id, { resolve, reject, thread, lengths: chunk.lengths, headroom: chunk.headroom });
      if (thread.busy === 0) thread.worker.ref();
      thread.busy++;
      for (const { id: signerId } of specs) thread.known.add(signerId);
      thread.worker.postMessage({ ...chunk, id, specs } satisfies SignChunk, [chunk.bytes]);
    });

  return {
    threads: size,
    async signAll(signers, messages) {
      if (closed) throw new Error('DKIM signing pool closed');
      if (signers.length === 0 || messages.length === 0) return [...messages];
      const described = signers.map((signer) => ({ signer, described: dkimSignerSpec(signer) }));
      // A signer the pool cannot rebuild on a thread signs here, on the calling thread.
      if (described.some((d) => !d.described)) return messages.map((raw) => signChain(signers, raw));
      const signerIds = described.map((d) => idOf(d.signer));
      const nowMs = (described[0]?.described?.now ?? Date.now)();
      const headroom = signatureRoom * signers.length;
      const chunks: Array<Promise<Buffer[]>> = [];
      for (let start = 0, turn = 0; start < messages.length; start += chunkSize, turn++) {
        // Round-robin over the threads, least busy first within a batch.
        const thread = threads.reduce((best, t) => (t.busy < best.busy ? t : best), threads[turn % size] as Thread);
        const specs = signerIds.flatMap((id, i) =>
          thread.known.has(id) ? [] : [{ id, spec: described[i]?.described?.spec as DkimSignerSpec }],
        );
        // One contiguous buffer per chunk, room in front of each message, transferred (not copied) to the thread.
        const slice = messages.slice(start, start + chunkSize);
        const lengths = slice.map((m) => m.length);
        const bytes = new Uint8Array(lengths.reduce((a, b) => a + headroom + b, 0));
        let offset = 0;
        for (const m of slice) {
          bytes.set(m, offset + headroom);
          offset += headroom + m.length;
        }
        chunks.push(send(thread, { signerIds, nowMs, bytes: bytes.buffer, lengths, headroom }, specs));
      }
      return (await Promise.all(chunks)).flat();
    },
    async close() {
      closed = true;
      for (const [, waiting] of pending) waiting.reject(new Error('DKIM signing pool closed'));
      pending.clear();
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
