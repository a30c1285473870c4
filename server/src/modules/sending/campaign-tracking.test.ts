import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { SenderSettings } from '../../worker/sending-engine';
import { ensureCampaignLinks } from '../tracking/campaign-links';
import { finishTrackedHtml, planTrackedHtml } from '../tracking/rewrite-links';
import { signTrackingToken, trackingTokenSigner, verifyTrackingToken } from '../tracking/tracking-token';
import { messages } from './messages.db';
import { runEngineUntil, useEngineHarness } from './testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from './testing/send-fixtures';
import type { SmtpSink } from './testing/smtp-sink';

const PUBLIC = 'https://app.carteiro.test';

const settings = (overrides: Partial<SenderSettings> = {}) =>
  testSenderSettings({ batchSize: 10, scheduleSweepSeconds: 3600, publicUrl: PUBLIC, ...overrides });

/** Static links (one with an entity), a link personalised with Liquid (a `"` inside the tag), mailto, unsubscribe. */
const TRACKED_TEMPLATE = `<html><head><title>{{ campanha.nome }}</title></head><body>
<p>Olá, {{ contato.nome }}!</p>
<p><a href="https://loja.exemplo.com.br/oferta?a=1&amp;b=2" style="color:#c00">Oferta</a></p>
<p><a class="btn" href='https://loja.exemplo.com.br/produtos/1'>Produto 1</a> e de novo
<a href="https://loja.exemplo.com.br/produtos/1">Produto 1 outra vez</a></p>
<p><a href="https://loja.exemplo.com.br/cidade/{{ contato.cidade | default: "brasil" | downcase }}">Sua cidade</a></p>
<p><a href="mailto:contato@exemplo.com.br">Fale conosco</a></p>
<p>{{ conta.nome }} — <a href="{{ link_descadastro }}">Descadastrar</a></p>
</body></html>`;

const CONTENT_URLS = (cidade: string) => [
  'https://loja.exemplo.com.br/oferta?a=1&b=2',
  'https://loja.exemplo.com.br/produtos/1',
  'https://loja.exemplo.com.br/produtos/1',
  `https://loja.exemplo.com.br/cidade/${cidade}`,
];

const hrefsOf = (html: string) => [...html.matchAll(/<a\b[^>]*?\shref=(["'])(.*?)\1/g)].map((m) => m[2] as string);
const decode = (s: string) => s.replace(/&amp;/g, '&');

describe.each(DATABASE_KINDS)('click and open tracking in the sending engine on %s', (kind) => {
  const harness = useEngineHarness(kind);
  let t: TestApp;
  let sink: SmtpSink;
  let db: Db;
  beforeAll(() => {
    ({ t, sink, db } = harness);
  });

  async function sendCampaign(fields: { trackOpens?: boolean; trackClicks?: boolean; template?: string } = {}) {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 100_000);
    const recife = await createListWithContacts(db, user.accountId, ['ana@destino.com.br', 'bia@destino.com.br'], {
      cidade: 'Recife',
    });
    const natal = await createListWithContacts(db, user.accountId, ['caio@destino.com.br'], { cidade: 'Natal' });
    const id = await createReadyCampaign(db, user.accountId, {
      includeListIds: [recife.listId, natal.listId],
      template: TRACKED_TEMPLATE,
      ...fields,
    });
    const res = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    const before = sink.messages.length;
    const sender = harness.newSender({ settings: settings() });
    await runEngineUntil(sender, async () => (await campaignStatus(db, id))?.status === 'sent', 'the campaign sent', {
      pauseMs: 0,
    });
    const rows = await db.select().from(messages).where(eq(messages.campaignId, id));
    const got = sink.messages.slice(before);
    const delivered = await Promise.all(
      rows.map(async (row) => {
        const sunk = got.find((m) => m.to === row.email);
        if (!sunk) throw new Error(`${row.email} not delivered`);
        const mail = await simpleParser(sunk.raw);
        const head = sunk.raw.toString('latin1').split('\r\n\r\n')[0] ?? '';
        return { row, mail, html: String(mail.html), head };
      }),
    );
    return { id, delivered };
  }

  it('rewrites every content link to a signed /c/ redirect to the original URL, adds the open pixel, keeps unsubscribe direct', async () => {
    const { id, delivered } = await sendCampaign();
    expect(delivered).toHaveLength(3);
    for (const { row, html, head, mail } of delivered) {
      const cidade = row.email.startsWith('caio') ? 'natal' : 'recife';
      const unsubscribe = `${PUBLIC}/u/${row.token}`;
      const browser = `${PUBLIC}/campaign/${id}/template-viewer?t=${row.token}`;
      const hrefs = hrefsOf(html);
      // Ver no navegador (added at the top), 4 content links, mailto, unsubscribe.
      expect(hrefs).toHaveLength(7);
      expect(hrefs[0]).toBe(browser);
      expect(hrefs[5]).toBe('mailto:contato@exemplo.com.br');
      expect(hrefs[6]).toBe(unsubscribe);
      expect(head).toContain(`List-Unsubscribe: <${unsubscribe}>`);
      expect(html).toContain('Ver no navegador');
      expect(html).not.toContain('\u0001');

      const content = hrefs.slice(1, 5);
      for (const [i, href] of content.entries()) {
        expect(href).toMatch(/^https:\/\/app\.carteiro\.test\/c\/[A-Za-z0-9_-]+$/);
        const token = href.slice(`${PUBLIC}/c/`.length);
        const parsed = verifyTrackingToken(token);
        expect(parsed?.messageToken).toBe(row.token);
        // The engine's fast signer gives exactly what signTrackingToken gives.
        expect(token).toBe(signTrackingToken(row.token, parsed?.linkId as number));
        const res = await t.app.inject({
          method: 'GET',
          url: `/c/${token}`,
          headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' },
        });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe(CONTENT_URLS(cidade)[i]);
      }
      // The same URL twice is the same link (same token).
      expect(content[1]).toBe(content[2]);

      const pixel = /<img src="(https:\/\/app\.carteiro\.test\/o\/([A-Za-z0-9_-]+)\.gif)"/.exec(html);
      expect(pixel).not.toBeNull();
      expect(html.indexOf(pixel?.[1] as string)).toBeLessThan(html.indexOf('</body>'));
      expect(verifyTrackingToken(pixel?.[2] as string)).toEqual({ messageToken: row.token, linkId: 0 });
      const open = await t.app.inject({ method: 'GET', url: `/o/${pixel?.[2]}.gif` });
      expect(open.statusCode).toBe(200);
      expect(open.headers['content-type']).toBe('image/gif');
      // The text part keeps the plain URLs (the readable part) and no pixel.
      expect(mail.text).toContain('https://loja.exemplo.com.br/oferta?a=1&b=2');
      expect(mail.text).not.toContain('/o/');
    }
    // One campaign_links row per distinct URL: 2 static + one personalised per distinct city.
    const links = await queryRows<{ url: string }>(
      db,
      sql`select url from campaign_links where campaign_id = ${id} order by url`,
    );
    expect(links.map((l) => l.url)).toEqual([
      'https://loja.exemplo.com.br/cidade/natal',
      'https://loja.exemplo.com.br/cidade/recife',
      'https://loja.exemplo.com.br/oferta?a=1&b=2',
      'https://loja.exemplo.com.br/produtos/1',
    ]);
    // The clicks were recorded against the right messages and links.
    await t.app.trackingRecorder.flush();
    const [clicks] = await queryRows<{ n: number; messages: number }>(
      db,
      sql`select count(*)::int as n, count(distinct message_id)::int as messages
            from message_events where campaign_id = ${id} and kind = 'click'`,
    );
    expect(clicks).toEqual({ n: 12, messages: 3 });
  });

  it('track_clicks = false leaves the links alone; track_opens = false leaves the pixel out', async () => {
    const noClicks = await sendCampaign({ trackClicks: false });
    for (const { row, html } of noClicks.delivered) {
      const cidade = row.email.startsWith('caio') ? 'natal' : 'recife';
      expect(hrefsOf(html).slice(1, 5).map(decode)).toEqual(CONTENT_URLS(cidade));
      expect(html).not.toContain(`${PUBLIC}/c/`);
      expect(html).toMatch(/<img src="https:\/\/app\.carteiro\.test\/o\/[A-Za-z0-9_-]+\.gif"/);
    }
    expect(await queryRows(db, sql`select 1 from campaign_links where campaign_id = ${noClicks.id}`)).toHaveLength(0);

    const noOpens = await sendCampaign({ trackOpens: false });
    for (const { html } of noOpens.delivered) {
      expect(
        hrefsOf(html)
          .slice(1, 5)
          .every((h) => h.startsWith(`${PUBLIC}/c/`)),
      ).toBe(true);
      expect(html).not.toContain(`${PUBLIC}/o/`);
      expect(html).not.toContain('<img');
    }

    const neither = await sendCampaign({ trackOpens: false, trackClicks: false });
    for (const { row, html } of neither.delivered) {
      expect(html).not.toContain(`${PUBLIC}/c/`);
      expect(html).not.toContain(`${PUBLIC}/o/`);
      expect(hrefsOf(html)[0]).toBe(`${PUBLIC}/campaign/${neither.id}/template-viewer?t=${row.token}`);
      expect(hrefsOf(html).at(-1)).toBe(`${PUBLIC}/u/${row.token}`);
    }
  });

  it('concurrent link registrations (several lanes or workers) all get the ids', async () => {
    const user = await signUp(t, { verified: true });
    const list = await createListWithContacts(db, user.accountId, ['x@destino.com.br']);
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: [list.listId] });
    const urls = Array.from({ length: 20 }, (_, i) => `https://loja.exemplo.com.br/corrida/${i}`);
    const answers = await Promise.all(Array.from({ length: 8 }, () => ensureCampaignLinks(db, id, urls)));
    for (const answer of answers) for (const url of urls) expect(answer.get(url)).toBeTypeOf('number');
    expect(await queryRows(db, sql`select 1 from campaign_links where campaign_id = ${id}`)).toHaveLength(20);
  });

  it('a template with `| raw` output is rewritten per message (links from merge data tracked too)', async () => {
    const template = `<html><body><p>{{ "<a href='https://loja.exemplo.com.br/raw'>raw</a>" | raw }}</p>
<a href="https://loja.exemplo.com.br/fixo">fixo</a> <a href="{{ link_descadastro }}">Descadastrar</a></body></html>`;
    const { delivered } = await sendCampaign({ template });
    for (const { row, html } of delivered) {
      const hrefs = hrefsOf(html);
      expect(hrefs).toHaveLength(4);
      for (const [i, href] of hrefs.slice(1, 3).entries()) {
        expect(href).toMatch(/^https:\/\/app\.carteiro\.test\/c\//);
        const res = await t.app.inject({ method: 'GET', url: href.slice(PUBLIC.length) });
        expect(res.headers.location).toBe(['https://loja.exemplo.com.br/raw', 'https://loja.exemplo.com.br/fixo'][i]);
      }
      expect(hrefs[3]).toBe(`${PUBLIC}/u/${row.token}`);
      expect(html).toContain(`${PUBLIC}/o/`);
    }
  });
});

describe('planTrackedHtml / finishTrackedHtml', () => {
  const plan = (source: string, opts: Partial<{ trackClicks: boolean; trackOpens: boolean }> = {}) =>
    planTrackedHtml(source, { publicUrl: PUBLIC, trackClicks: true, trackOpens: true, nonce: 'abc123', ...opts });

  it('marks static and personalised hrefs, never the own links, and protects Liquid tags', () => {
    const p = plan(
      `<body><a href="{{ link_navegador }}">v</a><a title="{{ "a>b" }}" href="https://x.test/{{ c | default: "d" }}">p</a>` +
        `<a href="https://x.test/s">s</a><a href="{{link_descadastro}}">u</a><a href="${PUBLIC}/u/x">u2</a></body>`,
    );
    expect(p.staticUrls).toEqual(['https://x.test/s']);
    expect(p.personalised).toBe(true);
    expect(p.source).toContain('href="{{ link_navegador }}"');
    expect(p.source).toContain('href="{{link_descadastro}}"');
    expect(p.source).toContain(`href="${PUBLIC}/u/x"`);
    expect(p.source).toContain(
      'title="{{ "a>b" }}" href="\u0001abc123Phttps://x.test/{{ c | default: "d" }}\u0001abc123E"',
    );
    expect(p.source).not.toContain('Ver no navegador');
    expect(p.source.startsWith('<body>')).toBe(true);
    expect(p.source.endsWith('" /></body>')).toBe(true);
    expect(p.source).toContain('<img src="\u0001abc123O" width="1"');
  });

  it('replaces the markers of a rendered message; drops a personalised marker cut by Liquid control flow', () => {
    const p = plan('<body><a href="https://x.test/s">s</a><a href="https://x.test/{{ c }}">p</a></body>');
    const sign = trackingTokenSigner('ab'.repeat(20));
    const rendered = p.source.replace('{{ c }}', 'q&amp;r').replace('{{ link_navegador }}', 'https://v');
    const out = finishTrackedHtml(rendered, p, {
      publicUrl: PUBLIC,
      sign,
      staticIds: [7],
      linkIdOf: (url) => (url === 'https://x.test/q&r' ? 9 : undefined),
    });
    expect(out).toContain(`href="${PUBLIC}/c/${signTrackingToken('ab'.repeat(20), 7)}"`);
    expect(out).toContain(`href="${PUBLIC}/c/${signTrackingToken('ab'.repeat(20), 9)}"`);
    expect(out).toContain(`<img src="${PUBLIC}/o/${signTrackingToken('ab'.repeat(20), 0)}.gif"`);
    const unknown = finishTrackedHtml(rendered, p, {
      publicUrl: PUBLIC,
      sign,
      staticIds: [7],
      linkIdOf: () => undefined,
    });
    expect(unknown).toContain('href="https://x.test/q&amp;r"');
    const cut = finishTrackedHtml('a\u0001abc123Pb c\u0001abc123L0;d', p, {
      publicUrl: PUBLIC,
      sign,
      staticIds: [7],
      linkIdOf: () => 1,
    });
    expect(cut).toBe(`ab c${PUBLIC}/c/${signTrackingToken('ab'.repeat(20), 7)}d`);
    expect(
      plan('<body><a href="https://x.test">x</a></body>', { trackClicks: false, trackOpens: false }).hasMarkers,
    ).toBe(false);
  });
});
