import { VALIDATION_TEXTS, type ValidationKey } from '@carteiro/shared';

type ValidationMessages = { readonly [K in ValidationKey as `validation.${K}`]: string };

/**
 * The shared schemas' validation texts as `validation.*` keys: pt-BR comes from the shared catalogue itself, so the
 * web's pt-BR cannot drift from what the server answers; en.ts has the same keys in English.
 */
export const ptBRValidation = Object.fromEntries(
  Object.entries(VALIDATION_TEXTS).map(([key, text]) => [`validation.${key}`, text]),
) as ValidationMessages;
