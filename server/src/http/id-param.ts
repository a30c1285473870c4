import { z } from 'zod';
import { type MissingThing, notFound } from './not-found';

const idParams = z.object({ id: z.uuid() });

/**
 * The `:id` of a route. Ids are uuids, so anything else names a row that cannot exist: the thing's 404
 * ("Lista não encontrada."), the same answer as a uuid of another account — never a 400 or a 500.
 */
export function idParam(params: unknown, thing: MissingThing): string {
  const parsed = idParams.safeParse(params);
  if (!parsed.success) throw notFound(thing);
  return parsed.data.id;
}
