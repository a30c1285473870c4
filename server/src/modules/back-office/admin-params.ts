import { validationText } from '@carteiro/shared';
import { z } from 'zod';

/** An account's or a top-up's `:id` in the back office: a uuid, else 400 (the operator typed or pasted it). */
export const idParams = z.object({ id: z.uuid(validationText('idInvalid')) });

/** A user's `:userId` (better-auth's ids are not uuids). */
export const userIdParams = z.object({ userId: z.string().min(1).max(200) });
