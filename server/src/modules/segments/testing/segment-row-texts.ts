import { sql } from 'drizzle-orm';

/**
 * The custom field texts of segment row `g` as one jsonb, wherever the row keeps them: field_texts, and the
 * `field_text_<slot>` column of each key the account gave a slot (segment_field_slots). What a test compares with
 * the contact's fields; only the key that a slot names may be read from its column.
 */
export const SEGMENT_ROW_TEXTS = sql.raw(`(g.field_texts || (
  select coalesce(jsonb_object_agg(s.key, (array[g.field_text_1, g.field_text_2, g.field_text_3, g.field_text_4,
                                               g.field_text_5, g.field_text_6, g.field_text_7, g.field_text_8])[s.slot])
                    filter (where (array[g.field_text_1, g.field_text_2, g.field_text_3, g.field_text_4, g.field_text_5,
                                         g.field_text_6, g.field_text_7, g.field_text_8])[s.slot] is not null),
                  '{}'::jsonb)
    from segment_field_slots s where s.account_id = g.account_id))`);
