import { identityFooterTable } from '@carteiro/shared';

/**
 * The "Em branco" starting point: a 600 px centred column with one paragraph and the identity footer (razão
 * social, CNPJ/CPF, address, the unsubscribe link), which the visual editor shows as one locked block.
 */
export const BLANK_TEMPLATE_HTML = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;background:#f4f4f7;font-family:Arial,Helvetica,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f4f7;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-radius:8px;">
<tr><td style="padding:16px 0;">
<p style="margin:0;padding:8px 24px;font-family:Arial,Helvetica,sans-serif;color:#1f2937;font-size:16px;line-height:24px;">Olá, {{ contato.nome | default: "cliente" }}!</p>
${identityFooterTable()}
</td></tr>
</table></td></tr></table>
</body>
</html>`;
