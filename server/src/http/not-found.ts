import { AppError } from './app-error';

/**
 * What a 404 names, and its pt-BR sentence: the one place these texts live, so a resource reads the same on
 * every screen and operation (the web shows the server's message as is).
 */
export const NOT_FOUND_TEXT = {
  account: 'Conta não encontrada.',
  alert: 'Alerta não encontrado.',
  apiKey: 'Chave de API não encontrada.',
  automation: 'Automação não encontrada.',
  campaign: 'Campanha não encontrada.',
  contact: 'Contato não encontrado.',
  delivery: 'Entrega não encontrada.',
  document: 'Documento não encontrado.',
  domain: 'Domínio não encontrado.',
  file: 'Arquivo não encontrado.',
  fileOrExpired: 'Arquivo não encontrado (ou expirado).',
  image: 'Imagem não encontrada.',
  import: 'Importação não encontrada.',
  list: 'Lista não encontrada.',
  message: 'Mensagem não encontrada.',
  segment: 'Segmento não encontrado.',
  sender: 'Remetente não encontrado.',
  template: 'Modelo não encontrado.',
  topup: 'Recarga não encontrada.',
  user: 'Usuário não encontrado.',
  webhookEndpoint: 'Endpoint de webhook não encontrado.',
} as const;

export type MissingThing = keyof typeof NOT_FOUND_TEXT;

/** The 404 for a `thing` that does not exist in the caller's account (or at all: the answer is the same). */
export function notFound(thing: MissingThing): AppError {
  return new AppError('not_found', NOT_FOUND_TEXT[thing]);
}
