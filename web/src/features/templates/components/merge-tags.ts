import type { MessageKey, MessageParams } from '@/lib/i18n';

/**
 * Merge tags offered by the "Inserir campo" menu. The tags are Liquid with the pt-BR scope (`contato.*`) in every
 * interface language; the menu label is a catalogue key (`t(label, labelParams)`).
 */
export interface MergeTag {
  label: MessageKey;
  labelParams?: MessageParams;
  tag: string;
}

export const BASE_MERGE_TAGS: MergeTag[] = [
  { label: 'templates.tags.name', tag: '{{ contato.nome | default: "cliente" }}' },
  { label: 'templates.tags.email', tag: '{{ contato.email }}' },
  { label: 'templates.tags.unsubscribe', tag: '{{ link_descadastro }}' },
];

export function customFieldTags(fieldNames: readonly string[]): MergeTag[] {
  return fieldNames
    .filter((name) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(name))
    .map((name) => ({ label: 'templates.tags.field', labelParams: { name }, tag: `{{ contato.${name} }}` }));
}
