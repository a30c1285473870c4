import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { queryClient } from '@/lib/query-client';
import { renderWithProviders } from '@/test/render';
import { SettingsPage } from './settings-page';

const session = {
  user: { id: 'u1', name: 'Maria', email: 'maria@padaria.com.br', emailVerified: true },
  account: { id: 'a1', uuid: 'a1', name: 'Padaria' },
  accounts: [],
  role: 'owner',
  isOperator: false,
};

// jsdom has no layout: a 358 px wide tab strip (a phone) whose tabs sit side by side.
const LAYOUT: Record<string, [left: number, width: number]> = {
  'tab-conta': [0, 62],
  'tab-equipe': [66, 72],
  'tab-seguranca': [142, 100],
  'tab-remetentes': [246, 172],
};
const scroll = new WeakMap<Element, number>();
const saved = {
  offsetLeft: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetLeft'),
  offsetWidth: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetWidth'),
  clientWidth: Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth'),
  scrollLeft: Object.getOwnPropertyDescriptor(Element.prototype, 'scrollLeft'),
};

let restore: () => void = () => {};
beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'offsetLeft', {
    configurable: true,
    get(this: HTMLElement) {
      return LAYOUT[this.id]?.[0] ?? 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return LAYOUT[this.id]?.[1] ?? 0;
    },
  });
  Object.defineProperty(Element.prototype, 'clientWidth', {
    configurable: true,
    get(this: Element) {
      return this.getAttribute('role') === 'tablist' ? 358 : 0;
    },
  });
  Object.defineProperty(Element.prototype, 'scrollLeft', {
    configurable: true,
    get(this: Element) {
      return scroll.get(this) ?? 0;
    },
    set(this: Element, value: number) {
      scroll.set(this, value);
    },
  });
});
afterEach(() => {
  restore();
  queryClient.clear();
  for (const [name, descriptor] of Object.entries(saved)) {
    const target = name === 'offsetLeft' || name === 'offsetWidth' ? HTMLElement.prototype : Element.prototype;
    if (descriptor) Object.defineProperty(target, name, descriptor);
  }
});

function renderAt(url: string) {
  restore = configureApiClient({
    fetch: vi.fn(async () =>
      Response.json({
        addresses: [],
        domains: [],
        allowed: { addresses: [], domains: [] },
        members: [],
        invitations: [],
      }),
    ),
  });
  queryClient.setQueryData(SESSION_QUERY_KEY, session);
  renderWithProviders(<SettingsPage />, { at: url, client: queryClient });
}

describe('SettingsPage tabs on a phone', () => {
  it('a link to ?aba=remetentes scrolls the tab strip so "Remetentes e domínios" shows whole', () => {
    renderAt('/dashboard/settings?aba=remetentes');
    const list = screen.getByRole('tablist');
    expect(screen.getByRole('tab', { name: 'Remetentes e domínios' }).getAttribute('aria-selected')).toBe('true');
    // 246 + 172 − 358: the tab's right edge meets the strip's right edge.
    expect(list.scrollLeft).toBe(60);
  });

  it('the first tab needs no scrolling', () => {
    renderAt('/dashboard/settings?aba=conta');
    expect(screen.getByRole('tablist').scrollLeft).toBe(0);
  });
});
