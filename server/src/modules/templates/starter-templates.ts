import { identityFooterTable, type StarterTemplate } from '@carteiro/shared';

/**
 * pt-BR starter templates: table-based, 600 px wide on desktop and fluid below (one media query, inline styles
 * for clients that drop <style>), each with the one identity footer (`identityFooterTable`: razão social, CNPJ/CPF,
 * address, the unsubscribe and browser links), which the visual editor shows as a locked block.
 */

function layout(options: { title: string; accent: string; body: string }): string {
  return `<!DOCTYPE html>
<html lang="pt-BR" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<title>${options.title}</title>
<style>
  body { margin: 0; padding: 0; background: #f3f4f6; }
  img { border: 0; display: block; max-width: 100%; height: auto; }
  a { color: ${options.accent}; }
  @media only screen and (max-width: 620px) {
    .container { width: 100% !important; }
    .px { padding-left: 20px !important; padding-right: 20px !important; }
    .col { display: block !important; width: 100% !important; }
    .h1 { font-size: 24px !important; line-height: 30px !important; }
  }
</style>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6;">
  <tr>
    <td align="center" style="padding:24px 8px;">
      <table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px;max-width:600px;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;color:#1f2937;">
${options.body}
        <tr>
          <td style="padding:0;">${identityFooterTable()}</td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>
`;
}

const newsletter = layout({
  title: 'Novidades do mês',
  accent: '#2563eb',
  body: `        <tr>
          <td class="px" style="padding:32px 40px 8px;">
            <p style="margin:0;font-size:13px;letter-spacing:1px;text-transform:uppercase;color:#2563eb;">Newsletter</p>
            <h1 class="h1" style="margin:8px 0 0;font-size:28px;line-height:34px;">Novidades do mês</h1>
          </td>
        </tr>
        <tr>
          <td class="px" style="padding:16px 40px;font-size:16px;line-height:24px;">
            <p style="margin:0 0 16px;">Olá, {{ contato.nome | default: "tudo bem" }}!</p>
            <p style="margin:0 0 16px;">Separamos as principais novidades deste mês para você. Troque este texto pelo conteúdo da sua newsletter.</p>
          </td>
        </tr>
        <tr>
          <td class="px" style="padding:0 40px 16px;">
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
              <tr>
                <td class="col" width="50%" valign="top" style="padding:8px 8px 16px 0;font-size:15px;line-height:22px;">
                  <h2 style="margin:0 0 8px;font-size:18px;">Primeiro destaque</h2>
                  <p style="margin:0;">Um resumo curto do assunto, com um convite para ler mais.</p>
                </td>
                <td class="col" width="50%" valign="top" style="padding:8px 0 16px 8px;font-size:15px;line-height:22px;">
                  <h2 style="margin:0 0 8px;font-size:18px;">Segundo destaque</h2>
                  <p style="margin:0;">Outra novidade que interessa a quem acompanha você.</p>
                </td>
              </tr>
            </table>
          </td>
        </tr>
        <tr>
          <td class="px" align="center" style="padding:8px 40px 32px;">
            <a href="https://exemplo.com.br" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 24px;border-radius:6px;">Ler no site</a>
          </td>
        </tr>`,
});

const promotion = layout({
  title: 'Oferta especial',
  accent: '#dc2626',
  body: `        <tr>
          <td align="center" style="padding:40px 40px 8px;background:#fef2f2;border-radius:8px 8px 0 0;" class="px">
            <p style="margin:0;font-size:14px;font-weight:bold;color:#dc2626;">SÓ ATÉ DOMINGO</p>
            <h1 class="h1" style="margin:8px 0;font-size:36px;line-height:42px;color:#111827;">30% de desconto</h1>
            <p style="margin:0 0 24px;font-size:16px;line-height:24px;">{{ contato.nome | default: "Cliente" }}, esta oferta foi separada para você.</p>
          </td>
        </tr>
        <tr>
          <td class="px" align="center" style="padding:24px 40px;font-size:16px;line-height:24px;">
            <p style="margin:0 0 16px;">Use o cupom abaixo na finalização da compra:</p>
            <p style="margin:0 0 24px;font-size:24px;font-weight:bold;letter-spacing:4px;border:2px dashed #dc2626;padding:12px;">PROMO30</p>
            <a href="https://exemplo.com.br" style="display:inline-block;background:#dc2626;color:#ffffff;text-decoration:none;font-weight:bold;padding:14px 28px;border-radius:6px;">Aproveitar agora</a>
            <p style="margin:24px 0 0;font-size:12px;color:#6b7280;">Oferta válida enquanto durarem os estoques. Não cumulativa com outras promoções.</p>
          </td>
        </tr>`,
});

const announcement = layout({
  title: 'Comunicado',
  accent: '#059669',
  body: `        <tr>
          <td class="px" style="padding:40px 40px 8px;">
            <h1 class="h1" style="margin:0;font-size:28px;line-height:34px;">Temos uma novidade</h1>
          </td>
        </tr>
        <tr>
          <td class="px" style="padding:16px 40px 32px;font-size:16px;line-height:24px;">
            <p style="margin:0 0 16px;">Olá, {{ contato.nome | default: "tudo bem" }}.</p>
            <p style="margin:0 0 16px;">Queremos contar em primeira mão: escreva aqui o seu anúncio — um lançamento, uma mudança de horário, um novo endereço ou um evento.</p>
            <p style="margin:0 0 24px;">Qualquer dúvida, é só responder este e-mail.</p>
            <a href="https://exemplo.com.br" style="display:inline-block;background:#059669;color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 24px;border-radius:6px;">Saiba mais</a>
            <p style="margin:24px 0 0;">Um abraço,<br>Equipe {{ conta.nome }}</p>
          </td>
        </tr>`,
});

export const STARTER_TEMPLATES: readonly StarterTemplate[] = [
  {
    key: 'newsletter',
    name: 'Newsletter',
    subject: 'Novidades do mês para você, {{ contato.nome | default: "cliente" }}',
    html: newsletter,
  },
  {
    key: 'promocao',
    name: 'Promoção',
    subject: '{{ contato.nome | default: "Cliente" }}, 30% de desconto só até domingo',
    html: promotion,
  },
  { key: 'anuncio', name: 'Anúncio', subject: 'Temos uma novidade para contar', html: announcement },
];
