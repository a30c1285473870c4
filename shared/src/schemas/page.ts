import { z } from 'zod';

/** Every paginated list of the API: `limit` (1–200, 50 by default) and the `cursor` a page answered as `nextCursor`. */
export const pageQueryFields = {
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
};

/** A name filter of a list (case-insensitive, anywhere in the name). */
export const nameSearchField = z.string().trim().min(1).max(200).optional();
