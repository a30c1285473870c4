import { escapeHtml } from '../dev-mailbox/dev-mailbox.page';

export { escapeHtml };

/** The layout of Carteiro's public pt-BR pages (subscribe forms, confirmations, privacy requests). */
export function publicPage(title: string, body: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f6f5fb;color:#1f1b2e}
main{max-width:520px;margin:40px auto;padding:28px;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:22px;margin-top:0}label{display:block;margin:14px 0 4px;font-weight:600}
input[type=text],input[type=email]{width:100%;box-sizing:border-box;padding:10px;border:1px solid #ccc;border-radius:8px;font-size:16px}
.check{display:flex;gap:8px;align-items:flex-start;font-weight:400;margin-top:16px}.check input{margin-top:4px}
button{margin-top:20px;background:#5b21b6;color:#fff;border:0;border-radius:8px;padding:12px 18px;font-size:16px;cursor:pointer}
.note{color:#6b6680;font-size:14px}.error{background:#fdecec;color:#8a1c1c;padding:10px 12px;border-radius:8px}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}fieldset{border:0;padding:0;margin:0}
</style></head><body><main>${body}<p class="note">Enviado com Carteiro.</p></main></body></html>`;
}
