import { DEFAULT_MIN_PASSWORD_LENGTH } from '@carteiro/shared';
import { z } from 'zod';

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

/** zod issues → the first message key per field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}
