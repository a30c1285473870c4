import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Files (relative to web/src) whose code matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return sources(ROOT)
    .filter((path) => pattern.test(readFileSync(path, 'utf8')))
    .map((path) => relative(ROOT, path).split(sep).join('/'));
}

describe('one mechanism per job in the web', () => {
  it('the tab title is set only by usePageTitle', () => {
    expect(filesMatching(/document\.title\s*=/)).toEqual(['lib/use-page-title.ts']);
  });

  it("a zod issue's text is read only by lib/form-fields.ts (issueText: the current locale)", () => {
    expect(filesMatching(/issues\[\d+\]\??\.message|\b(issue|other|i)\.message\b/)).toEqual(['lib/form-fields.ts']);
  });

  it('the clipboard is written only by useCopyToClipboard', () => {
    expect(filesMatching(/clipboard\??\.writeText/)).toEqual(['lib/use-copy.ts']);
  });
});
