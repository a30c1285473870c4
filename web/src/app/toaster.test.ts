import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOASTER_PLACEMENT } from './toaster';

const classes = new Set(TOASTER_PLACEMENT.split(/\s+/));
// __dirname, not import.meta.url: under jsdom the module's URL is an http one.
const layout = readFileSync(join(__dirname, 'dashboard-layout.tsx'), 'utf8');

describe('where toasts appear', () => {
  it('on a desktop, inside the sidebar column at its bottom: never over the page or its actions', () => {
    const sidebar = /lg:grid-cols-\[(\d+rem)_1fr\]/.exec(layout)?.[1];
    expect(sidebar).toBe('16rem');
    for (const c of ['lg:left-0', 'lg:bottom-0', 'lg:top-auto', 'lg:inset-x-auto', `lg:w-[${sidebar}]`]) {
      expect(classes.has(c), c).toBe(true);
    }
    expect([...classes].some((c) => /^(sm:|lg:)?right-0$/.test(c))).toBe(false);
  });

  it('on a phone, at the top over the app bar, not over the bottom of the page', () => {
    expect(classes.has('top-0')).toBe(true);
    expect(classes.has('bottom-0')).toBe(false);
  });
});
