import { z } from 'zod';
import { AppError } from './app-error';

const idParams = z.object({ id: z.uuid() });

/**
 * The `:id` of a route. Ids are uuids, so anything else names a row that cannot exist: a 404 with the route's own
 * pt-BR message ("Lista não encontrada."), the same answer as a uuid of another account — never a 400 or a 500.
 */
export function idParam(params: unknown, notFound: string): string {
  const parsed = idParams.safeParse(params);
  if (!parsed.success) throw new AppError('not_found', notFound);
  return parsed.data.id;
}
