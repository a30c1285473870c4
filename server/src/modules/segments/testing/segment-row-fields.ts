import { type SQL, sql } from 'drizzle-orm';

/** The three forms a segment row keeps a custom field in: its jsonb object and its slot columns' name. */
const FORMS = {
  texts: { object: 'field_texts', column: 'field_text', json: (v: string) => v },
  numbers: { object: 'field_numbers', column: 'field_number', json: (v: string) => `to_jsonb(${v})` },
  days: { object: 'field_days', column: 'field_day', json: (v: string) => v },
} as const;

/**
 * One form of the custom fields of segment row `g` as one jsonb, wherever the row keeps it: the jsonb object, and
 * the slot column of each key the account gave a slot (segment_field_slots). What a test compares with the
 * contact's fields; a slot's column is read only for the key the slot names.
 */
export function segmentRowFields(form: keyof typeof FORMS): SQL {
  const { object, column, json } = FORMS[form];
  const slots = `(array[${Array.from({ length: 8 }, (_, i) => `g.${column}_${i + 1}`).join(', ')}])[s.slot]`;
  return sql.raw(`(g.${object} || (
    select coalesce(jsonb_object_agg(s.key, ${json(slots)}) filter (where ${slots} is not null), '{}'::jsonb)
      from segment_field_slots s where s.account_id = g.account_id))`);
}

/** Whether segment row `g` still holds a slotted key in one of its jsonb objects (it must not). */
export const SLOTTED_KEY_IN_JSONB = sql.raw(`(select g.field_texts ?| k or g.field_numbers ?| k or g.field_days ?| k
   from (select array(select s.key from segment_field_slots s where s.account_id = g.account_id) as k) x)`);
