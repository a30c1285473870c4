/** SMTP reply parsing (RFC 5321 §4.2, multi-line replies) and enhanced status codes (RFC 3463). */
import type { DeliveryOutcome } from '../transport';

export interface SmtpReply {
  /** Three-digit code; 0 when the connection was lost (or timed out) before the reply. */
  code: number;
  enhancedCode: string | null;
  /** The full reply, lines joined with "\n" (or the reason the reply never came). */
  text: string;
}

const ENHANCED = /^([245]\.\d{1,3}\.\d{1,3})(?:\s|$)/;

/** Splits a stream of bytes into complete replies; tolerates bare LF. */
export class ReplyParser {
  private buffer = '';
  private lines: string[] = [];

  push(chunk: Buffer): SmtpReply[] {
    this.buffer += chunk.toString('utf8');
    const replies: SmtpReply[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      if (lf < 0) break;
      const line = this.buffer.slice(start, this.buffer.charCodeAt(lf - 1) === 13 ? lf - 1 : lf);
      start = lf + 1;
      this.lines.push(line);
      // "250-…" continues, "250 …" or a bare "250" ends the reply.
      if (line.length > 3 && line.charCodeAt(3) === 45 /* - */) continue;
      const code = Number.parseInt(line.slice(0, 3), 10) || 0;
      const first = this.lines[0]!;
      const enhanced = ENHANCED.exec(first.slice(4));
      replies.push({
        code: code >= 200 && code < 600 ? code : 0,
        enhancedCode: enhanced ? enhanced[1]! : null,
        text: this.lines.join('\n'),
      });
      this.lines = [];
    }
    this.buffer = start > 0 ? this.buffer.slice(start) : this.buffer;
    return replies;
  }
}

export function lostReply(reason: string): SmtpReply {
  return { code: 0, enhancedCode: null, text: reason };
}

export function isPositive(reply: SmtpReply): boolean {
  return reply.code >= 200 && reply.code < 400;
}

/** 2xx → sent; 4xx or no reply → temporary; 5xx → permanent (policy when the enhanced code is 5.7.x). */
export function outcomeOf(id: string, reply: SmtpReply): DeliveryOutcome {
  const code = reply.code === 0 ? null : reply.code;
  if (code !== null && code >= 200 && code < 300) {
    return { id, kind: 'sent', policy: false, code, enhancedCode: reply.enhancedCode, response: reply.text };
  }
  if (code !== null && code >= 500) {
    const policy = reply.enhancedCode?.startsWith('5.7.') ?? false;
    return { id, kind: 'permanent', policy, code, enhancedCode: reply.enhancedCode, response: reply.text };
  }
  return { id, kind: 'temporary', policy: false, code, enhancedCode: reply.enhancedCode, response: reply.text };
}
