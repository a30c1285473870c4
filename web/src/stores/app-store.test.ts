import { TOAST_REMOVE_DELAY_AFTER_DISMISS_MS, TOAST_REMOVE_DELAY_MS } from '@carteiro/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from './app-store';
import { toastReducer } from './toast-reducer';

describe('toastReducer', () => {
  it('puts a new toast in front and keeps at most 1', () => {
    const a = { id: 1, title: 'A', open: true };
    const b = { id: 2, title: 'B', open: true };
    expect(toastReducer(toastReducer([], { type: 'ADD_TOAST', toast: a }), { type: 'ADD_TOAST', toast: b })).toEqual([
      b,
    ]);
  });

  it('updates, dismisses and removes by id', () => {
    const list = [{ id: 1, title: 'A', open: true }];
    expect(toastReducer(list, { type: 'UPDATE_TOAST', toast: { id: 1, title: 'A2' } })[0]?.title).toBe('A2');
    expect(toastReducer(list, { type: 'DISMISS_TOAST', toastId: 1 })[0]?.open).toBe(false);
    expect(toastReducer(list, { type: 'REMOVE_TOAST', toastId: 1 })).toEqual([]);
    expect(toastReducer(list, { type: 'REMOVE_TOAST' })).toEqual([]);
  });
});

describe('toasts in the store (spec §4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows at most one toast: a new one replaces the previous', () => {
    const store = createAppStore();
    store.toast({ title: 'Primeiro' });
    const second = store.toast({ title: 'Segundo' });
    expect(store.getState().toasts).toHaveLength(1);
    expect(store.getState().toasts[0]).toMatchObject({ id: second, title: 'Segundo', open: true });
  });

  it('gives each toast a random numeric id', () => {
    const store = createAppStore();
    const a = store.toast({ title: 'A' });
    const b = store.toast({ title: 'B' });
    expect(Number.isInteger(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  it('removes a toast 5000 ms after it is shown, and not before', () => {
    const store = createAppStore();
    store.toast({ title: 'Olá' });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(store.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toHaveLength(0);
  });

  it('after a dismissal, closes at once and removes only after 1,000,000 ms', () => {
    const store = createAppStore();
    const id = store.toast({ title: 'Olá' });
    store.dispatch({ type: 'DISMISS_TOAST', toastId: id });
    expect(store.getState().toasts[0]?.open).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(store.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_AFTER_DISMISS_MS - TOAST_REMOVE_DELAY_MS - 1);
    expect(store.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toHaveLength(0);
  });

  it('setting the toast (update) cancels its pending removal', () => {
    const store = createAppStore();
    const id = store.toast({ title: 'Enviando…' });
    vi.advanceTimersByTime(4000);
    store.dispatch({ type: 'UPDATE_TOAST', toast: { id, title: 'Enviado' } });
    vi.advanceTimersByTime(4000); // 8000 ms after the add: the first removal would have fired at 5000.
    expect(store.getState().toasts[0]?.title).toBe('Enviado');
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 4000);
    expect(store.getState().toasts).toHaveLength(0);
  });

  it('setting a new list cancels the replaced toast’s removal (the new toast lives its full 5000 ms)', () => {
    const store = createAppStore();
    store.toast({ title: 'A' });
    vi.advanceTimersByTime(3000);
    store.toast({ title: 'B' });
    expect(store.pendingRemovals()).toBe(1);
    vi.advanceTimersByTime(2000); // A's removal time: B must stay.
    expect(store.getState().toasts[0]?.title).toBe('B');
    vi.advanceTimersByTime(3000);
    expect(store.getState().toasts).toHaveLength(0);
    expect(store.pendingRemovals()).toBe(0);
  });

  it('dismiss without an id closes every toast', () => {
    const store = createAppStore();
    store.toast({ title: 'A' });
    store.dispatch({ type: 'DISMISS_TOAST' });
    expect(store.getState().toasts.every((t) => !t.open)).toBe(true);
  });
});

describe('shared client state (spec §3)', () => {
  it('holds user, account, dialog and contact_upload_progress', () => {
    const store = createAppStore();
    store.dispatch({
      type: 'SET_USER',
      user: { id: 'u1', name: 'Ana', email: 'ana@example.com', emailVerified: true },
    });
    store.dispatch({ type: 'SET_ACCOUNT', account: { id: 'a1', uuid: 'x', name: 'Loja' } });
    store.dispatch({ type: 'SET_CONTACT_UPLOAD_PROGRESS', progress: 42 });
    const action = () => {};
    store.confirm({ title: 'T', description: 'D', action });
    expect(store.getState()).toMatchObject({
      user: { id: 'u1' },
      account: { id: 'a1' },
      contactUploadProgress: 42,
      dialog: { title: 'T', action },
    });
  });
});
