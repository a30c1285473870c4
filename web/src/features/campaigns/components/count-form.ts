import { plural } from '@carteiro/shared';

/**
 * The catalogue form (`.one` / `.other`) for a count, by the shared rule people write in Brazil ("0 destinatários":
 * CLDR's pt rule would pick the singular for 0). It is English's rule too.
 */
export function countForm(count: number): 'one' | 'other' {
  return plural(count, 'one', 'other') === 'one' ? 'one' : 'other';
}
