import { DEFAULT_MIN_PASSWORD_LENGTH } from '@carteiro/shared';
import { z } from 'zod';
import { emailField, passwordField } from '@/lib/form-fields';

/** Field errors carry catalogue keys, so the form shows them in the current locale. */
export const signInSchema = z.object({
  email: emailField,
  password: z.string().min(1, { message: 'auth.validation.passwordRequired' }),
});

export const magicLinkSchema = z.object({ email: emailField });

export function signUpSchema(minPasswordLength = DEFAULT_MIN_PASSWORD_LENGTH) {
  return z.object({
    name: z.string().trim().min(1, { message: 'auth.validation.nameRequired' }),
    email: emailField,
    password: passwordField(minPasswordLength),
  });
}
