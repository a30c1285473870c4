import type { DeliveryOutcome, MailTransport, WireMessage } from './transport';

/** Waits so that a relay never gets more than `rate` messages per second from this process (0 = no limit). */
class RateLimiter {
  private next = 0;
  constructor(private readonly rate: number) {}
  async take(count: number): Promise<void> {
    if (this.rate <= 0) return;
    const now = Date.now();
    const start = Math.max(now, this.next);
    this.next = start + (count / this.rate) * 1000;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }
}

/**
 * The deliver step of the pipeline: a worker's relays (one transport each) and their rate limiters, shared by
 * every lane and every claim source of the process.
 */
export class RelayDelivery {
  private readonly limiters: RateLimiter[];

  constructor(
    private readonly transports: MailTransport[],
    ratePerRelay: number,
  ) {
    if (transports.length === 0) throw new Error('the sender needs at least one transport');
    this.limiters = transports.map(() => new RateLimiter(ratePerRelay));
  }

  /** How many relays there are (a lane delivers through relay `lane % count`). */
  get count(): number {
    return this.transports.length;
  }

  /**
   * Hands built messages to the relay's transport, within the relay's rate limit; a transport that throws
   * answers every message temporary (retried with back-off).
   */
  async deliver(relay: number, wire: WireMessage[]): Promise<DeliveryOutcome[]> {
    if (wire.length === 0) return [];
    await this.limiters[relay]?.take(wire.length);
    const transport = this.transports[relay] as MailTransport;
    try {
      return await transport.deliver(wire);
    } catch (error) {
      const response = `sem resposta do servidor: ${(error as Error).message}`;
      return wire.map((m) => ({
        id: m.id,
        kind: 'temporary',
        policy: false,
        code: null,
        enhancedCode: null,
        response,
      }));
    }
  }
}

/**
 * The relay, not the recipient, failed: no reply (connection refused or lost, timeout), 421 (service closing),
 * or a 5xx the transport reported as temporary (an AUTH refusal answers every queued message that way).
 */
export function isRelayFailure(outcome: DeliveryOutcome): boolean {
  return outcome.kind === 'temporary' && (outcome.code === null || outcome.code === 421 || outcome.code >= 500);
}
