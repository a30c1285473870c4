import type { UnsubscribeTarget } from '../campaigns/message-recipient';
import { escapeHtml } from '../dev-mailbox/dev-mailbox.page';
import type { PreferenceList } from './unsubscribe';

/**
 * The page shell. A recipient opens it on a phone as often as not: below 600 px the card takes the whole width,
 * and a long address breaks anywhere instead of widening the page past the screen.
 */
function layout(title: string, body: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f6f5fb;color:#1f1b2e}
main{max-width:560px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.08);overflow-wrap:anywhere}
@media (max-width:600px){body{background:#fff}main{margin:0;border-radius:0;padding:20px;box-shadow:none}}
h1{font-size:22px;margin:0 0 12px}p{line-height:1.5}.note{color:#6b6680;font-size:14px}
button{font:inherit;border:0;border-radius:8px;padding:10px 18px;cursor:pointer;background:#5b21b6;color:#fff}
button.secondary{background:#efeafc;color:#5b21b6}label{display:block;padding:8px 0;border-bottom:1px solid #eee}
fieldset{border:0;padding:0;margin:16px 0}form{margin:16px 0}.ok{background:#ecfdf5;color:#065f46;padding:10px 14px;border-radius:8px}
</style></head><body><main>${body}</main></body></html>`;
}

/** What an unsubscribe covers (the marketing stream only), said on every page that confirms one. */
const TRANSACTIONAL_NOTE =
  'Mensagens sobre pedidos, pagamentos, senha e a sua conta — as transacionais — continuam chegando normalmente.';

function preferenceForm(token: string, lists: PreferenceList[]): string {
  if (lists.length === 0) return '';
  const rows = lists
    .map(
      (l) =>
        `<label><input type="checkbox" name="list" value="${escapeHtml(l.id)}"${l.subscribed ? ' checked' : ''}> ${escapeHtml(l.name)}` +
        `${l.description ? ` <span class="note">— ${escapeHtml(l.description)}</span>` : ''}</label>`,
    )
    .join('');
  return `<h2 style="font-size:17px;margin-top:28px">Preferências</h2>
<p class="note">Escolha de quais listas você quer continuar recebendo mensagens.</p>
<form method="post" action="/u/${escapeHtml(token)}/preferences"><fieldset>${rows}</fieldset>
<button type="submit" class="secondary">Salvar preferências</button></form>`;
}

/** GET /u/:token — never changes anything: asks for confirmation and offers the preference centre. */
export function renderUnsubscribePage(
  token: string,
  target: UnsubscribeTarget,
  lists: PreferenceList[],
  notice?: string,
): string {
  const done =
    target.contactStatus === 'unsubscribed' ||
    (lists.length > 0 && lists.filter((l) => l.inCampaign).every((l) => !l.subscribed));
  const blocked = target.contactStatus === 'bounced' || target.contactStatus === 'complained';
  const head = `<h1>Cancelar inscrição</h1><p>Você recebe este e-mail de <strong>${escapeHtml(target.accountName)}</strong> no endereço <strong>${escapeHtml(target.email)}</strong>.</p>`;
  const noticeHtml = notice ? `<p class="ok" role="status">${escapeHtml(notice)}</p>` : '';
  if (blocked) {
    return layout(
      'Cancelar inscrição',
      `${head}${noticeHtml}<p>Este endereço não recebe mais mensagens desta conta.</p>`,
    );
  }
  const account = `<strong>${escapeHtml(target.accountName)}</strong>`;
  // What the button does, said as it is: leaving the campaign's lists is leaving the account's marketing unless
  // the contact stays on another list (then those lists are named).
  const staysOn = lists
    .filter((l) => !l.inCampaign && l.subscribed)
    .map((l) => `<strong>${escapeHtml(l.name)}</strong>`);
  const prompt =
    staysOn.length === 0
      ? `Confirme abaixo para não receber mais nenhum e-mail de marketing de ${account}.`
      : `Confirme abaixo para sair das listas desta campanha. Você continua recebendo e-mails de marketing de ${account} por ${staysOn.join(', ')} (desmarque abaixo para sair também).`;
  const action = done
    ? `<p>${target.contactStatus === 'subscribed' ? `Você saiu das listas desta campanha: não receberá mais e-mails de marketing de ${account} por elas.` : `Você não receberá mais e-mails de marketing de ${account}.`}</p>
<p class="note">${TRANSACTIONAL_NOTE}</p>
<form method="post" action="/u/${escapeHtml(token)}/resubscribe"><button type="submit" class="secondary">Quero voltar a receber</button></form>`
    : `<p>${prompt}</p>
<p class="note">${TRANSACTIONAL_NOTE}</p>
<form method="post" action="/u/${escapeHtml(token)}/confirm"><button type="submit">Confirmar cancelamento</button></form>`;
  return layout(
    'Cancelar inscrição',
    `${head}${noticeHtml}${action}${preferenceForm(token, lists)}
<p class="note" style="margin-top:28px">Enviado com Carteiro. Seus dados são tratados conforme a LGPD.</p>`,
  );
}

export function renderNotFoundPage(): string {
  return layout(
    'Link inválido',
    '<h1>Link inválido</h1><p>Este link de descadastro não existe ou foi alterado. Use o link do e-mail recebido.</p>',
  );
}

/** The answer to a one-click POST (mail clients rarely show it; a person who posts the link by hand does). */
export function renderOneClickDone(target: UnsubscribeTarget): string {
  return layout(
    'Inscrição cancelada',
    `<h1>Inscrição cancelada</h1><p>Você não receberá mais e-mails de marketing de <strong>${escapeHtml(target.accountName)}</strong>.</p><p class="note">${TRANSACTIONAL_NOTE}</p>`,
  );
}
