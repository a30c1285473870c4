import { type ErrorCode, INTERNAL_ERROR_PT_BR, isErrorCode } from '@carteiro/shared';
import { useMemo, useSyncExternalStore } from 'react';
import { type MessageKey, type Messages, ptBR } from './pt-BR';

export type { MessageKey, Messages };
export type Locale = 'pt-BR' | 'en';
export const LOCALES: readonly Locale[] = ['pt-BR', 'en'];
export const DEFAULT_LOCALE: Locale = 'pt-BR';
export const LOCALE_STORAGE_KEY = 'carteiro.locale';

type ErrorMessages = Partial<Record<ErrorCode, string>>;

/** pt-BR ships in the entry chunk; other locales are fetched on demand (the landing's JS budget is 100 KB). */
const catalogues: Partial<Record<Locale, { messages: Messages; errors: ErrorMessages }>> = {
  // The app's texts (pt-BR-app.ts) are added by app-messages.ts when the signed-in chunks load, and the error
  // catalogue by errors-pt-BR.ts with every chunk that shows an error (not the landing's).
  'pt-BR': { messages: ptBR as Messages, errors: {} },
};
const loaders: Record<Exclude<Locale, 'pt-BR'>, () => Promise<{ messages: Messages; errors: ErrorMessages }>> = {
  en: () =>
    Promise.all([import('./en'), import('./errors-en')]).then(([m, e]) => ({
      messages: m.en,
      errors: e.ERROR_MESSAGES_EN,
    })),
};

/** Adds texts to a loaded catalogue (the app's pt-BR part arrives with the dashboard/auth chunks). */
export function addMessages(locale: Locale, messages: Partial<Messages>): void {
  const loaded = catalogues[locale];
  if (loaded) loaded.messages = { ...loaded.messages, ...messages };
}

/** Adds error texts to a loaded catalogue (pt-BR's arrive with the chunks that show errors). */
export function addErrors(locale: Locale, errors: ErrorMessages): void {
  const loaded = catalogues[locale];
  if (loaded) loaded.errors = { ...loaded.errors, ...errors };
}

/** Loads a locale's catalogues (no-op when loaded). */
export async function loadLocale(locale: Locale): Promise<void> {
  if (catalogues[locale] || locale === 'pt-BR') return;
  catalogues[locale] = await loaders[locale]();
}

function catalogue(locale: Locale) {
  return catalogues[locale] ?? catalogues['pt-BR']!;
}

export type MessageParams = Record<string, string | number>;

/** Replaces `{name}` placeholders; unknown placeholders stay as written so a missing param is visible. */
export function interpolate(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/** Whether `key` is a key of the loaded catalogue (a zod issue's message may be one, e.g. `auth.validation.email`). */
export function isMessageKey(locale: Locale, key: string): key is MessageKey {
  return Object.hasOwn(catalogue(locale).messages, key);
}

export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  return interpolate(catalogue(locale).messages[key], params);
}

/**
 * The catalogue's text for an error code in `locale`, else `fallback` (the server's text), else a generic one.
 * Screens call errorText (lib/error-text.ts), which prefers the server's own pt-BR message.
 */
export function errorMessage(locale: Locale, code: string | undefined, fallback?: string): string {
  const errors = catalogue(locale).errors;
  const known = code && isErrorCode(code) ? errors[code] : undefined;
  return known || fallback || errors.internal_error || INTERNAL_ERROR_PT_BR;
}

/**
 * Locale from an explicit choice saved in localStorage, else pt-BR. Carteiro is Portuguese first: the browser's
 * language does not switch the interface (a Brazilian owner with an English-language browser still gets pt-BR).
 */
export function detectLocale(storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage()): Locale {
  const stored = storage?.getItem(LOCALE_STORAGE_KEY);
  if (stored && (LOCALES as readonly string[]).includes(stored)) return stored as Locale;
  return DEFAULT_LOCALE;
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage can throw when cookies are blocked; the default locale is then used.
    return undefined;
  }
}

let currentLocale: Locale = DEFAULT_LOCALE;
const listeners = new Set<() => void>();

export function getLocale(): Locale {
  return currentLocale;
}

/** Switches the locale once its catalogue is loaded, remembers it, and re-renders users of `useI18n`. */
export async function setLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  currentLocale = locale;
  safeLocalStorage()?.setItem(LOCALE_STORAGE_KEY, locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  for (const listener of listeners) listener();
}

const preferred = detectLocale();
if (preferred !== DEFAULT_LOCALE) {
  setLocale(preferred).catch((error: unknown) => console.warn(`catálogo ${preferred} indisponível`, error));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `t(key, params)` in the current locale; re-renders when the locale changes. */
export function useI18n() {
  const locale = useSyncExternalStore(subscribe, getLocale, getLocale);
  // Stable per locale, so `t` can sit in effect dependencies.
  return useMemo(
    () => ({
      locale,
      setLocale,
      t: (key: MessageKey, params?: MessageParams) => translate(locale, key, params),
    }),
    [locale],
  );
}
