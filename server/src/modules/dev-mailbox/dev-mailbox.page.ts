import { DEFAULT_TIME_ZONE } from '@carteiro/shared';
import type { DevMailDetail, DevMailSummary } from './dev-mailbox';

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const dateFormat = new Intl.DateTimeFormat('pt-BR', {
  dateStyle: 'short',
  timeStyle: 'medium',
  timeZone: DEFAULT_TIME_ZONE,
});

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f6f5fb;color:#1f1b2e}
header{background:#5b21b6;color:#fff;padding:14px 24px}header a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:1100px;margin:0 auto;padding:24px}.note{color:#6b6680;font-size:14px}
table{width:100%;border-collapse:collapse;background:#fff;border-radius:8px;overflow:hidden}
th,td{text-align:left;padding:10px 12px;border-bottom:1px solid #eee;font-size:14px;vertical-align:top}
th{background:#efeafc}a{color:#5b21b6}iframe{width:100%;height:640px;border:1px solid #ddd;background:#fff;border-radius:8px}
pre{white-space:pre-wrap;word-break:break-word;background:#fff;padding:12px;border-radius:8px;border:1px solid #eee;font-size:13px}
h2{font-size:16px;margin-top:28px}</style></head><body><header><a href="/dev/mailbox">📬 Caixa de saída de desenvolvimento</a></header><main>${body}</main></body></html>`;
}

/** The list page of /dev/mailbox. */
export function renderMailboxList(messages: DevMailSummary[]): string {
  const rows = messages
    .map(
      (m) =>
        `<tr><td>${escapeHtml(dateFormat.format(m.receivedAt))}</td><td>${escapeHtml(m.to.join(', '))}</td>` +
        `<td><a href="/dev/mailbox/${m.id}">${escapeHtml(m.subject || '(sem assunto)')}</a></td><td>${escapeHtml(m.from)}</td></tr>`,
    )
    .join('');
  const table = messages.length
    ? `<table><thead><tr><th>Recebida</th><th>Para</th><th>Assunto</th><th>De</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p>Nenhuma mensagem ainda. Os e-mails enviados pelo Carteiro (cadastro, testes, campanhas) aparecem aqui.</p>';
  return layout(
    'Caixa de saída de desenvolvimento',
    `<h1>Mensagens recebidas</h1><p class="note">O coletor de e-mails embutido guarda aqui tudo o que o Carteiro envia enquanto nenhum servidor SMTP real está configurado. Nada sai desta máquina.</p>${table}`,
  );
}

/**
 * The message's HTML as the frame shows it: every link opens in a new tab (`<base target="_blank">`), so clicking
 * "Confirmar e-mail" in a preview opens the link instead of blanking the sandboxed frame.
 */
export function previewHtml(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  return base + html;
}

/**
 * One message: headers, HTML in a sandboxed frame (no script, no same-origin; popups allowed, unsandboxed, only so
 * its links open in a tab of their own), text part and raw source.
 */
export function renderMailboxMessage(message: DevMailDetail): string {
  const headers = message.headers
    .map((h) => `<tr><th>${escapeHtml(h.name)}</th><td>${escapeHtml(h.value)}</td></tr>`)
    .join('');
  const html = message.html
    ? `<h2>HTML</h2><iframe sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" title="Conteúdo HTML da mensagem" srcdoc="${escapeHtml(previewHtml(message.html))}"></iframe>`
    : '';
  return layout(
    message.subject || '(sem assunto)',
    `<p><a href="/dev/mailbox">← Voltar</a></p><h1>${escapeHtml(message.subject || '(sem assunto)')}</h1>${html}` +
      `<h2>Texto</h2><pre>${escapeHtml(message.text)}</pre><h2>Cabeçalhos</h2><table><tbody>${headers}</tbody></table>` +
      `<h2>Código-fonte</h2><p><a href="/dev/mailbox/${message.id}/raw">Abrir o código-fonte bruto</a></p><pre>${escapeHtml(message.raw)}</pre>`,
  );
}
