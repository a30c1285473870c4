import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EmptyState, PeopleIcon } from './empty-state';

afterEach(cleanup);

describe('EmptyState', () => {
  it('shows an empty tray by default, never a clock (an empty list is not "wait")', () => {
    const { container } = render(<EmptyState title="Nada ainda" description="Crie o primeiro." />);
    expect(container.querySelector('svg')?.getAttribute('data-icon')).toBe('vazio');
    expect(container.querySelector('circle[r="9"]')).toBeNull();
  });

  it('takes the icon of its page (people for contacts)', () => {
    const { container } = render(<EmptyState icon={<PeopleIcon />} title="Nenhum contato" description="Importe." />);
    expect(container.querySelector('svg')?.getAttribute('data-icon')).toBe('pessoas');
  });
});
