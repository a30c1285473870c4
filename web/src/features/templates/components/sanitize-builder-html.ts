/**
 * What the visual builder drops from HTML before its parser sees it and from the HTML it saves. GrapesJS's own
 * parser removes <script>, on* handlers and values starting with a lower-case `javascript:`, but keeps
 * `JavaScript:`, `  javascript:` and an <iframe srcdoc>: inert in the app (CSP, sandboxed previews), yet they would
 * be saved into the template and reach mail clients. None of these has a place in an e-mail.
 */
const DROPPED_ELEMENTS = 'script, iframe, frame, frameset, object, embed, applet, base, meta[http-equiv]';
/** Attributes that carry a URL a browser would follow or load. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'background', 'poster']);

/** A URL value as a browser reads its scheme: control characters and spaces ignored, any case. */
function runsCode(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers skip these characters inside a scheme
  const scheme = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  return scheme.startsWith('javascript:') || scheme.startsWith('vbscript:') || scheme.startsWith('data:text/html');
}

function unsafeAttribute(name: string, value: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('on') || lower === 'srcdoc' || (URL_ATTRIBUTES.has(lower) && runsCode(value));
}

/**
 * The same HTML with every code-running element and attribute removed. HTML with nothing to remove comes back
 * exactly as it was given (so the builder's usual input and output are never reformatted).
 */
export function sanitizeBuilderHtml(html: string): string {
  // DOMParser documents are inert: nothing in them loads or runs while they are inspected.
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let changed = false;
  for (const element of Array.from(doc.querySelectorAll(DROPPED_ELEMENTS))) {
    element.remove();
    changed = true;
  }
  for (const element of Array.from(doc.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      if (unsafeAttribute(attribute.name, attribute.value)) {
        element.removeAttribute(attribute.name);
        changed = true;
      }
    }
  }
  if (!changed) return html;
  const whole = /<html[\s>]/i.test(html);
  if (!whole) return doc.body.innerHTML;
  return `${/^\s*<!doctype/i.test(html) ? '<!DOCTYPE html>' : ''}${doc.documentElement.outerHTML}`;
}
