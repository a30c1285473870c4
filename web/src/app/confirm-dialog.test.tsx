import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppStoreContext, createAppStore } from '@/stores/app-store';
import { ConfirmDialog } from './confirm-dialog';

function setup() {
  const store = createAppStore();
  const action = vi.fn();
  render(
    <AppStoreContext value={store}>
      <ConfirmDialog />
    </AppStoreContext>,
  );
  act(() => store.confirm({ title: 'Excluir a lista?', description: 'Esta ação não pode ser desfeita.', action }));
  return { store, action };
}

describe('ConfirmDialog (spec §4)', () => {
  it('is closed while no dialog is set', () => {
    render(
      <AppStoreContext value={createAppStore()}>
        <ConfirmDialog />
      </AppStoreContext>,
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('opens with the title, description and pt-BR buttons, focus inside', () => {
    setup();
    const dialog = screen.getByRole('alertdialog', { name: 'Excluir a lista?' });
    expect(dialog.textContent).toContain('Esta ação não pode ser desfeita.');
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBe(document.activeElement);
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeTruthy();
  });

  it('Cancelar closes without running the action', () => {
    const { store, action } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(action).not.toHaveBeenCalled();
    expect(store.getState().dialog).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('Esc and the overlay dismiss without running the action', () => {
    const { store, action } = setup();
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    expect(store.getState().dialog).toBeNull();
    act(() => store.confirm({ title: 'De novo', description: '', action }));
    fireEvent.click(screen.getByTestId('dialog-overlay'));
    expect(store.getState().dialog).toBeNull();
    expect(action).not.toHaveBeenCalled();
  });

  it('Continuar runs the action once, then closes', async () => {
    const { store, action } = setup();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    });
    expect(action).toHaveBeenCalledTimes(1);
    expect(store.getState().dialog).toBeNull();
  });
});
