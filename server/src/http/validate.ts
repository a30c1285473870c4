import type { z } from 'zod';
import { AppError } from './app-error';

/** Parses untrusted input with a shared zod schema; throws a 400 AppError listing each field in pt-BR. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const first = fields[0];
  const message = first
    ? `${first.path ? `${first.path}: ` : ''}${first.message}`
    : 'Alguns campos estão inválidos. Confira e tente de novo.';
  throw new AppError('validation_failed', message, { fields });
}
