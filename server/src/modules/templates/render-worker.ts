import { parentPort } from 'node:worker_threads';
import { compileCampaign, type MessageScope, type MessageSource, renderMessage } from './render-message';

/**
 * The body of a render-pool thread (untrusted-render.ts): compiles and renders one message at a time, off the
 * server's event loop. A template that runs away here costs this thread only; the pool kills it at the deadline.
 */
export interface RenderRequest {
  id: number;
  source: MessageSource;
  scope: MessageScope;
}

export type RenderReply =
  | { id: number; ok: true; subject: string; html: string; text: string }
  | { id: number; ok: false; stage: 'compile' | 'render'; message: string };

function reply(message: RenderReply): void {
  parentPort?.postMessage(message);
}

parentPort?.on('message', (request: RenderRequest) => {
  let compiled: ReturnType<typeof compileCampaign>;
  try {
    compiled = compileCampaign(request.source);
  } catch (error) {
    reply({ id: request.id, ok: false, stage: 'compile', message: (error as Error).message });
    return;
  }
  try {
    reply({ id: request.id, ok: true, ...renderMessage(compiled, request.scope) });
  } catch (error) {
    reply({ id: request.id, ok: false, stage: 'render', message: (error as Error).message });
  }
});

// Loaded: from now on, a job's deadline measures its render only (not this thread's start-up).
parentPort?.postMessage('ready');
