/**
 * Every identity e-mail Carteiro sends, in pt-BR, as HTML and plain text. Links are absolute, built from
 * PUBLIC_URL by the caller. Everything interpolated into HTML is escaped.
 */
export interface IdentityEmail {
  subject: string;
  html: string;
  text: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(opts: { title: string; paragraphs: string[]; action: string; url: string; footer: string }): string {
  const paragraphs = opts.paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('\n');
  const url = escapeHtml(opts.url);
  return `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(opts.title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f3ff;font-family:Arial,Helvetica,sans-serif;color:#1f1b2e">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px">
<tr><td style="padding:32px">
<p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:#6d28d9">Carteiro</p>
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(opts.title)}</h1>
${paragraphs}
<p style="margin:24px 0"><a href="${url}" style="display:inline-block;padding:12px 20px;background:#6d28d9;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold">${escapeHtml(opts.action)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">Se o botão não funcionar, copie e cole este endereço no navegador:<br><a href="${url}" style="color:#6d28d9;word-break:break-all">${url}</a></p>
<p style="margin:24px 0 0;font-size:12px;color:#777">${escapeHtml(opts.footer)}</p>
</td></tr></table>
</body></html>`;
}

/**
 * A paragraph as the plain-text part says it: there is no button there, only the link printed below the text
 * ("clicando no botão abaixo" would point at nothing).
 */
export function forTextPart(paragraph: string): string {
  return paragraph
    .replace(/clicando no botão abaixo/g, 'abrindo o link abaixo')
    .replace(/Clique no botão para /g, 'Abra o link abaixo para ')
    .replace(/Clique para /g, 'Abra o link abaixo para ');
}

function textBody(opts: { title: string; paragraphs: string[]; url: string; footer: string }): string {
  return [
    opts.title,
    '',
    ...opts.paragraphs.flatMap((p) => [forTextPart(p), '']),
    opts.url,
    '',
    opts.footer,
    '',
    '— Carteiro',
  ].join('\n');
}

function build(opts: {
  subject: string;
  title: string;
  paragraphs: string[];
  action: string;
  url: string;
  footer: string;
}): IdentityEmail {
  return { subject: opts.subject, html: layout(opts), text: textBody(opts) };
}

const IGNORE = 'Se você não pediu isto, ignore este e-mail: nada muda na sua conta.';

export function verificationEmail(opts: { name: string; url: string }): IdentityEmail {
  return build({
    subject: 'Confirme seu e-mail no Carteiro',
    title: `Olá${opts.name ? `, ${opts.name}` : ''}! Confirme seu e-mail`,
    paragraphs: ['Para enviar campanhas pelo Carteiro, confirme que este endereço é seu clicando no botão abaixo.'],
    action: 'Confirmar e-mail',
    url: opts.url,
    footer: `O link vale por 24 horas. ${IGNORE}`,
  });
}

export function magicLinkEmail(opts: { url: string; expiresInMinutes: number }): IdentityEmail {
  return build({
    subject: 'Seu link para entrar no Carteiro',
    title: 'Entrar no Carteiro',
    paragraphs: ['Recebemos um pedido para entrar na sua conta com um link por e-mail. Clique no botão para entrar.'],
    action: 'Entrar no Carteiro',
    url: opts.url,
    footer: `O link vale por ${opts.expiresInMinutes} minutos e só pode ser usado uma vez. ${IGNORE}`,
  });
}

export function resetPasswordEmail(opts: { name: string; url: string; expiresInMinutes: number }): IdentityEmail {
  return build({
    subject: 'Redefinição de senha do Carteiro',
    title: `Olá${opts.name ? `, ${opts.name}` : ''}! Vamos redefinir sua senha`,
    paragraphs: ['Recebemos um pedido para redefinir a senha da sua conta. Clique no botão para escolher uma nova.'],
    action: 'Redefinir senha',
    url: opts.url,
    footer: `O link vale por ${opts.expiresInMinutes} minutos e só pode ser usado uma vez. ${IGNORE}`,
  });
}

export function changeEmailEmail(opts: { name: string; newEmail: string; url: string }): IdentityEmail {
  return build({
    subject: 'Confirme a troca de e-mail no Carteiro',
    title: `Olá${opts.name ? `, ${opts.name}` : ''}! Confirme a troca de e-mail`,
    paragraphs: [`Recebemos um pedido para trocar o e-mail da sua conta para ${opts.newEmail}. Clique para confirmar.`],
    action: 'Confirmar troca de e-mail',
    url: opts.url,
    footer: IGNORE,
  });
}

export function invitationEmail(opts: {
  inviterName: string;
  accountName: string;
  role: 'owner' | 'admin' | 'member';
  url: string;
  expiresInDays: number;
}): IdentityEmail {
  const roleLabel = { owner: 'proprietário(a)', admin: 'administrador(a)', member: 'membro' }[opts.role];
  return build({
    subject: `${opts.inviterName} convidou você para a conta ${opts.accountName} no Carteiro`,
    title: `Convite para a conta ${opts.accountName}`,
    paragraphs: [
      `${opts.inviterName} convidou você para participar da conta ${opts.accountName} no Carteiro como ${roleLabel}.`,
      'Entre ou crie sua conta com este mesmo e-mail para aceitar o convite.',
    ],
    action: 'Aceitar convite',
    url: opts.url,
    footer: `O convite vale por ${opts.expiresInDays} dias. Se você não esperava este convite, ignore este e-mail.`,
  });
}
