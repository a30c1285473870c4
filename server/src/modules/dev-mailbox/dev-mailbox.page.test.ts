import { describe, expect, it } from 'vitest';
import { previewHtml, renderMailboxMessage } from './dev-mailbox.page';

describe('dev mailbox preview', () => {
  it('opens the links of a message in a new tab rather than inside the sandboxed frame', () => {
    expect(previewHtml('<html><head><title>x</title></head><body><a href="http://a">a</a></body></html>')).toBe(
      '<html><head><base target="_blank"><title>x</title></head><body><a href="http://a">a</a></body></html>',
    );
    expect(previewHtml('<p><a href="http://a">a</a></p>')).toBe(
      '<base target="_blank"><p><a href="http://a">a</a></p>',
    );
  });

  it('keeps the frame without scripts or same origin, allowing only the new tab', () => {
    const page = renderMailboxMessage({
      id: 'm1',
      subject: 'Confirme seu e-mail',
      html: '<p><a href="http://localhost/verify">Confirmar</a></p>',
      text: 'Confirmar: http://localhost/verify',
      headers: [],
      raw: '',
    } as unknown as Parameters<typeof renderMailboxMessage>[0]);
    const sandbox = /<iframe sandbox="([^"]*)"/.exec(page)?.[1] ?? '';
    expect(sandbox.split(' ').sort()).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    expect(page).toContain('srcdoc="&lt;base target=&quot;_blank&quot;&gt;');
  });
});
