import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createSecretBox, generateWebhookSecret, signWebhook, webhookHeaders } from './signing';

describe('Standard Webhooks signing', () => {
  it('reproduces the published test vector (standards.md)', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies with the standardwebhooks package; a tampered body and an old timestamp fail', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ type: 'message.delivered', data: { email: 'ana@exemplo.com.br' } });
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], 'evt_1', now, body);
    const verifier = new Webhook(secret);
    expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => verifier.verify(body.replace('ana', 'eva'), headers)).toThrow();
    const old = webhookHeaders([secret], 'evt_1', now - 10 * 60, body);
    expect(() => verifier.verify(body, old)).toThrow(/timestamp/i);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('signs with both secrets during a rotation, so either verifies', () => {
    const [previous, current] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"id":"evt_2"}';
    const headers = webhookHeaders([current, previous], 'evt_2', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(body, headers)).toEqual({ id: 'evt_2' });
    expect(new Webhook(current).verify(body, headers)).toEqual({ id: 'evt_2' });
  });
});

describe('secret box', () => {
  it('round-trips, never stores the plain secret, and refuses another key or a tampered value', () => {
    const box = createSecretBox('a'.repeat(40));
    const secret = generateWebhookSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
    expect(() => createSecretBox('b'.repeat(40)).open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('x'.repeat(40)).toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
  });
});
