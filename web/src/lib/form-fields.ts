import { DEFAULT_MIN_PASSWORD_LENGTH, validationIssueKey } from '@carteiro/shared';
import { z } from 'zod';
import { errorText } from '@/lib/error-text';
import { getLocale, isMessageKey, type Locale, type MessageKey, type MessageParams, translate } from '@/lib/i18n';

/**
 * Form fields several pages validate the same way (the /auth pages, Configurações → Segurança). Their errors carry
 * catalogue keys, so the form shows them in the current locale.
 */
export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'auth.validation.email' }));

export function passwordField(min = DEFAULT_MIN_PASSWORD_LENGTH) {
  return z.string().min(min, { message: 'auth.validation.passwordMin' });
}

type Issue = z.core.$ZodIssue;

/**
 * The one text of a zod issue on screen, in the current locale:
 * - a web catalogue key as the message (the fields above): its text;
 * - a shared schema's message (shared/src/validation-texts.ts): the same key's text, `validation.*`;
 * - a message zod wrote itself (a wrong type, a bound without our message): a text per issue code;
 * - any other message of ours (pt-BR, e.g. an e-mail problem from shared/src/email.ts): as is in pt-BR, the
 *   generic "invalid value" elsewhere.
 */
export function issueText(issue: Issue, locale: Locale = getLocale()): string {
  const bounds = issueBounds(issue);
  if (isMessageKey(locale, issue.message)) return translate(locale, issue.message, bounds);
  const shared = validationIssueKey(issue.message);
  if (shared) return translate(locale, `validation.${shared.key}`, shared.data);
  if (issue.code === 'custom') return locale === 'pt-BR' ? issue.message : translate(locale, 'validation.zodInvalid');
  return translate(locale, zodCodeKey(issue), bounds);
}

/** The text of a failed parse's first issue (the forms that show one error line). */
export function firstIssueText(error: z.ZodError, locale: Locale = getLocale()): string | null {
  const issue = error.issues[0];
  return issue ? issueText(issue, locale) : null;
}

/**
 * The submit of a form that shows one error line: parse the input with its shared schema (the first issue, or the
 * fallback, becomes the error), then save the parsed value (a failed save's text becomes the error). Resolves
 * whether it saved, so the form can go on (toast, navigate, reset) only then.
 */
export async function submitParsed<T>(
  schema: z.ZodType<T>,
  input: unknown,
  setError: (text: string | null) => void,
  save: (value: T) => Promise<unknown>,
  fallback: string | null = null,
): Promise<boolean> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    setError(firstIssueText(parsed.error) ?? fallback);
    return false;
  }
  setError(null);
  try {
    await save(parsed.data);
    return true;
  } catch (failure) {
    setError(errorText(failure));
    return false;
  }
}

/** zod issues → the first text per field. */
export function fieldErrors(error: z.ZodError, locale: Locale = getLocale()): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issueText(issue, locale);
  }
  return errors;
}

function issueBounds(issue: Issue): MessageParams {
  if (issue.code === 'too_small') return { min: String(issue.minimum), minimum: String(issue.minimum) };
  if (issue.code === 'too_big') return { max: String(issue.maximum), maximum: String(issue.maximum) };
  return {};
}

function zodCodeKey(issue: Issue): MessageKey {
  switch (issue.code) {
    case 'invalid_type':
      // zod's own text ends in "received undefined" when the field is missing altogether.
      return /received undefined$/.test(issue.message) ? 'validation.zodRequired' : 'validation.zodInvalid';
    case 'too_small':
      if (issue.origin === 'string') return 'validation.zodTooShort';
      return issue.origin === 'array' || issue.origin === 'set' ? 'validation.zodTooFew' : 'validation.zodTooSmall';
    case 'too_big':
      if (issue.origin === 'string') return 'validation.zodTooLong';
      return issue.origin === 'array' || issue.origin === 'set' ? 'validation.zodTooMany' : 'validation.zodTooBig';
    default:
      return 'validation.zodInvalid';
  }
}
