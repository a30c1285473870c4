/**
 * The "Em branco" starting point: a 600 px centred column whose footer already carries the sender's identity
 * (name, CNPJ/CPF, address) and the unsubscribe link.
 */
export const BLANK_TEMPLATE_HTML = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;background:#f4f4f7;font-family:Arial,Helvetica,sans-serif;">
<table width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f7;"><tr><td align="center" style="padding:24px 12px;">
<table width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;">
<tr><td style="padding:32px 24px;font-family:Arial,Helvetica,sans-serif;color:#1f2937;font-size:16px;line-height:1.5;">Olá, {{ contato.nome | default: "cliente" }}!</td></tr>
<tr><td style="padding:16px 24px;font-family:Arial,Helvetica,sans-serif;color:#6b7280;font-size:12px;line-height:18px;text-align:center;">{{ conta.nome }}{% if conta.cnpj != "" %} · CNPJ/CPF {{ conta.cnpj }}{% endif %}<br>{{ conta.endereco }}<br><a href="{{ link_descadastro }}" style="color:#6b7280;">Descadastrar</a></td></tr>
</table></td></tr></table>
</body>
</html>`;
