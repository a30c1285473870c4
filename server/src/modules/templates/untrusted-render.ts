import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { workerEntry } from '../../threads/worker-entry';
import type { MessageScope, MessageSource, RenderedMessage } from './render-message';
import type { RenderReply, RenderRequest } from './render-worker';

/**
 * Renders a sender's template where it cannot stall the server: a small pool of worker threads, each with a hard
 * deadline per message. Every render a request can trigger on demand goes through here — previews (library
 * template, campaign, public API), the render of a test send, the public "ver no navegador" viewer — so a hostile
 * template costs one thread for at most the deadline and `/healthz` keeps answering. The sending engine renders
 * in-process: its templates passed the save-time loop budget, it renders thousands of messages per campaign (a
 * thread hop per message would cost more than the render), and the worker role's event loop serves no HTTP.
 */
export interface RenderPoolSettings {
  /** Threads rendering at once. */
  workers: number;
  /** A render running longer than this is killed with its thread (which is replaced). */
  deadlineMs: number;
  /** Renders waiting for a thread beyond which new ones are refused (503). */
  maxQueued: number;
}

export const DEFAULT_RENDER_POOL: RenderPoolSettings = {
  workers: Math.min(2, availableParallelism()),
  deadlineMs: 2_000,
  maxQueued: 100,
};

interface Job {
  request: RenderRequest;
  resolve: (message: RenderedMessage) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The thread has loaded its code; the deadline of a job starts when it is handed to a ready thread. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/** dist/render-worker.js beside the bundled main.js; from source, render-worker.ts through tsx. */
const { entry: WORKER_ENTRY, workerData: WORKER_DATA } = workerEntry(
  import.meta.url,
  'render-worker',
  new URL('./render-worker.ts', import.meta.url),
);

/** A render refused or stopped by the pool itself (not by the template's own Liquid). */
export class RenderPoolError extends Error {
  constructor(
    readonly reason: 'deadline' | 'busy' | 'crashed',
    message: string,
  ) {
    super(message);
  }
}

class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(private settings: RenderPoolSettings) {}

  configure(settings: RenderPoolSettings): void {
    this.settings = settings;
  }

  render(source: MessageSource, scope: MessageScope): Promise<RenderedMessage> {
    return new Promise((resolve, reject) => {
      const job: Job = { request: { id: this.nextId++, source, scope }, resolve, reject };
      const idle = this.idleSlot();
      if (idle) return this.run(idle, job);
      if (this.queue.length >= this.settings.maxQueued) {
        return reject(new RenderPoolError('busy', 'too many renders waiting'));
      }
      this.queue.push(job);
    });
  }

  /** Ends every thread (idle threads never keep the process alive; this is for a clean stop). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const job of this.queue.splice(0)) job.reject(new RenderPoolError('crashed', 'render pool closed'));
    await Promise.all(
      slots.map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.reject(new RenderPoolError('crashed', 'render pool closed'));
        return slot.worker.terminate();
      }),
    );
  }

  private idleSlot(): Slot | null {
    const idle = this.slots.find((slot) => slot.job === null);
    if (idle) return idle;
    if (this.slots.length < this.settings.workers) return this.spawn();
    return null;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_ENTRY, { workerData: WORKER_DATA });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    worker.on('message', (reply: RenderReply | 'ready') => {
      if (reply === 'ready') {
        slot.ready = true;
        if (slot.job) this.send(slot, slot.job);
        return;
      }
      const job = slot.job;
      if (!job || job.request.id !== reply.id) return;
      this.finish(slot);
      if (reply.ok) job.resolve({ subject: reply.subject, html: reply.html, text: reply.text });
      else job.reject(new TemplateRenderError(reply.stage, reply.message));
      this.next(slot);
    });
    const lose = (error: Error) => {
      const job = slot.job;
      this.finish(slot);
      this.remove(slot);
      job?.reject(new RenderPoolError('crashed', error.message));
      this.drain();
    };
    worker.on('error', lose);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) lose(new Error(`render thread exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref(); // a render in progress keeps the process alive until it ends
    if (slot.ready) this.send(slot, job);
  }

  private send(slot: Slot, job: Job): void {
    slot.timer = setTimeout(() => {
      // The thread is busy in synchronous code: the only way to stop it is to end it.
      this.finish(slot);
      this.remove(slot);
      void slot.worker.terminate();
      job.reject(new RenderPoolError('deadline', `render took more than ${this.settings.deadlineMs} ms`));
      this.drain();
    }, this.settings.deadlineMs);
    slot.worker.postMessage(job.request);
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }

  private next(slot: Slot): void {
    const job = this.queue.shift();
    if (job) this.run(slot, job);
  }

  /** After a thread was lost: start queued jobs on idle or new threads. */
  private drain(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      this.run(slot, this.queue.shift() as Job);
    }
  }
}

/** The template's own failure: its Liquid does not compile, or its render stopped (a limit, a filter error). */
export class TemplateRenderError extends Error {
  constructor(
    readonly stage: 'compile' | 'render',
    message: string,
  ) {
    super(message);
  }
}

const pool = new RenderPool(DEFAULT_RENDER_POOL);

/** Sets the pool's size, deadline and queue (from the config, at start-up); threads already running stay. */
export function configureUntrustedRendering(settings: RenderPoolSettings): void {
  pool.configure(settings);
}

/** Ends the pool's threads (graceful stop, tests); the next render starts new ones. */
export function closeUntrustedRendering(): Promise<void> {
  return pool.close();
}

/**
 * One message of a sender's template, rendered off the event loop. Rejects with TemplateRenderError (the template's
 * fault) or RenderPoolError (deadline passed, pool busy); `renderUntrustedOrExplain` turns both into pt-BR errors.
 */
export function renderUntrusted(source: MessageSource, scope: MessageScope): Promise<RenderedMessage> {
  return pool.render(source, scope);
}

/** `renderUntrusted` with its failures as the AppErrors a user reads: 400 for the template, 503 when busy. */
export async function renderUntrustedOrExplain(source: MessageSource, scope: MessageScope): Promise<RenderedMessage> {
  try {
    return await renderUntrusted(source, scope);
  } catch (error) {
    throw explainRenderFailure(error);
  }
}

function explainRenderFailure(error: unknown): Error {
  if (error instanceof TemplateRenderError) {
    return new AppError(
      'validation_failed',
      error.stage === 'compile'
        ? `O modelo tem um erro de Liquid: ${error.message}`
        : `O modelo não pôde ser processado: ${liquidRenderMessage(error.message)}`,
    );
  }
  if (error instanceof RenderPoolError && error.reason === 'deadline') {
    return new AppError(
      'validation_failed',
      'O modelo demorou demais para ser processado e foi interrompido. Simplifique os laços ({% for %}) e os filtros do modelo.',
    );
  }
  if (error instanceof RenderPoolError && error.reason === 'busy') {
    return new AppError('service_unavailable', ERROR_TEXT.templates.previewsBusy);
  }
  return error as Error;
}

/** liquidjs's limit messages in pt-BR; anything else (already pt-BR from our tags, or a filter's) as it is. */
function liquidRenderMessage(raw: string): string {
  const message = raw.replace(/, line:\d+, col:\d+$/, '');
  if (/template render limit exceeded/i.test(message)) return 'o processamento passou do tempo máximo';
  if (/memory alloc limit exceeded/i.test(message)) return 'o modelo gera conteúdo demais';
  return message;
}
