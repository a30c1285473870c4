import { templateVariablesSchema } from '@carteiro/shared';
import { firstIssueText } from '@/lib/form-fields';
import { getLocale, type MessageKey, type MessageParams, translate } from '@/lib/i18n';

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

/** The template's declared per-message variables (`{{ dados.pedido }}`), given by each API send's `data`. */
export function dataVariableTags(names: readonly string[]): MergeTag[] {
  return names.map((name) => ({ label: 'templates.tags.data', labelParams: { name }, tag: `{{ dados.${name} }}` }));
}

/**
 * The "Variáveis por mensagem" field's text as the declared variables: names separated by commas, spaces or
 * semicolons (a leading `dados.` is accepted, as the template writes them), checked by the shared schema.
 */
export function parseTemplateVariables(text: string): { variables: string[] } | { error: string } {
  const names = text
    .split(/[\s,;]+/)
    .map((name) => name.replace(/^dados\./, ''))
    .filter(Boolean);
  const parsed = templateVariablesSchema.safeParse(names);
  if (parsed.success) return { variables: parsed.data };
  return { error: firstIssueText(parsed.error) ?? translate(getLocale(), 'templates.variables.invalid') };
}

export function customFieldTags(fieldNames: readonly string[]): MergeTag[] {
  return fieldNames
    .filter((name) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(name))
    .map((name) => ({ label: 'templates.tags.field', labelParams: { name }, tag: `{{ contato.${name} }}` }));
}
