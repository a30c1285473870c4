import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptBRApp } from './pt-BR-app';

/** Every source file of the SPA (tests excluded): the copy a user can see lives in these. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const ROOT = join(__dirname, '..', '..');

describe('copy sweep', () => {
  it('no text uses "(s)" / "(es)" plurals: a count picks the singular or plural form', () => {
    const offenders: string[] = [];
    for (const file of sources(ROOT)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          // A word glued to "(s)" inside a quoted string: 'tentativa(s)', "e-mail(s)", `contato(s)`.
          if (/['"`][^'"`]*\p{L}\((s|es|ns)\)[^'"`]*['"`]/u.test(line)) {
            offenders.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
          }
        });
    }
    expect(offenders).toEqual([]);
  });

  it('list confirmation is named in Portuguese: badges and the table column say no bare "opt-in"', () => {
    for (const key of ['lists.table.optIn', 'lists.optIn.single', 'lists.optIn.double'] as const) {
      expect(ptBRApp[key]).not.toMatch(/opt-in/i);
    }
    expect(ptBRApp['lists.optIn.double']).toBe('Confirmação por e-mail');
  });
});
