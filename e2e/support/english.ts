import type { Frame, Page } from 'playwright-core';

/**
 * Words that are English and never pt-BR: the texts GrapesJS and its newsletter preset ship with (block labels and
 * content, panel titles, toolbar names, style properties) and common interface verbs. "Link", "Tablet", "Normal"
 * and "Flex" are left out: they are pt-BR too.
 */
const ENGLISH =
  /\b(Insert|Lorem|ipsum|here|Button|Image|Text|Section|Quote|Divider|Grid|Items|Select|Drop|files|Upload|Add|Close|Cancel|Save|Delete|Move|Clone|Bold|Italic|Underline|Strike-through|Wrap|Style|Settings|Layers?|Blocks|Open|Export|Import|Code|View|Preview|Fullscreen|Undo|Redo|Selected|Box|Body|Row|Cell|Table|Width|Height|Font|Color|Background|Border|Align|Left|Right|Center|Top|Bottom|None|Weight|Title|Heading|Paragraph|Image here)\b/g;

/** The English words found in `texts` (each with the text it came from). */
export function englishWords(texts: readonly string[]): string[] {
  return texts.flatMap((text) => [...text.matchAll(ENGLISH)].map((m) => `${m[0]} (em "${text.slice(0, 80)}")`));
}

/** Visible text plus every title, aria-label, alt and placeholder under `selector` of a page or frame. */
export async function readableTexts(target: Page | Frame, selector: string): Promise<string[]> {
  return target.evaluate((root) => {
    const out: string[] = [];
    for (const element of Array.from(document.querySelectorAll(root))) {
      const text = (element as HTMLElement).innerText;
      if (text)
        out.push(
          ...text
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        );
      for (const node of Array.from(element.querySelectorAll('*'))) {
        for (const name of ['title', 'aria-label', 'alt', 'placeholder', 'aria-description']) {
          const value = node.getAttribute(name);
          if (value?.trim()) out.push(value.trim());
        }
      }
    }
    return out;
  }, selector);
}
