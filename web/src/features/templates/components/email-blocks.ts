import { bulletproofButton, identityFooterTable } from '@carteiro/shared';

/**
 * The visual editor's blocks: e-mail content in pt-BR (it reaches Brazilian recipients whatever the interface
 * language), tables with inline styles so Gmail and Outlook keep the layout, and placeholder pictures served by
 * Carteiro itself (`web/public/email/`, absolute URLs so a test send shows them) — never a third-party host.
 * The newsletter preset's own blocks (English, Lorem ipsum, via.placeholder.com) are not loaded.
 */

export interface EmailBlock {
  id: string;
  /** The tile's name, as the owner reads it. */
  label: string;
  /** One line on what the block is for (the tile's description). */
  hint: string;
  /** 24×24 SVG path of the tile's icon. */
  icon: string;
  /** The HTML inserted into the e-mail. `origin` is where the placeholder pictures are served from. */
  content: (origin: string) => string;
}

const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const TEXT_STYLE = `${FONT}font-size:16px;line-height:24px;color:#1f2937;`;

/** A paragraph cell of the given text, full width, with the editor's default spacing. */
const paragraph = (text: string) => `<p style="margin:0;padding:8px 24px;${TEXT_STYLE}">${text}</p>`;

const placeholder = (origin: string, file: string) => `${origin}/email/${file}`;

/** Columns that stack on phones (`.col` in the template's media query) with a paragraph in each. */
function columns(widths: number[]): string {
  const cells = widths
    .map(
      (width, i) =>
        `<td class="col" width="${width}%" valign="top" style="width:${width}%;padding:8px 12px;${TEXT_STYLE}"><p style="margin:0;">Texto da coluna ${i + 1}. Clique duas vezes para escrever.</p></td>`,
    )
    .join('');
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="padding:0 12px;"><tr>${cells}</tr></table>`;
}

function productCard(origin: string): string {
  return `<img src="${placeholder(origin, 'produto-280x180.png')}" width="280" alt="Foto do produto" style="display:block;width:100%;max-width:280px;height:auto;border:0;border-radius:6px;"><h3 style="margin:12px 0 4px;${FONT}font-size:18px;line-height:24px;color:#111827;">Nome do produto</h3><p style="margin:0 0 4px;${TEXT_STYLE}font-size:14px;line-height:20px;">Uma frase que faz o cliente querer este produto.</p><p style="margin:0;${FONT}font-size:18px;font-weight:bold;color:#6d28d9;">R$ 49,90</p>`;
}

function listItem(origin: string): string {
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td class="col" width="160" valign="top" style="width:160px;padding:8px 12px 8px 24px;"><img src="${placeholder(origin, 'foto-160x160.png')}" width="140" alt="Foto do item" style="display:block;width:140px;max-width:100%;height:auto;border:0;border-radius:6px;"></td><td class="col" valign="top" style="padding:8px 24px 8px 12px;${TEXT_STYLE}"><h3 style="margin:0 0 6px;${FONT}font-size:18px;line-height:24px;color:#111827;">Título do item</h3><p style="margin:0;">Conte em poucas palavras por que este item vale a visita.</p></td></tr></table>`;
}

const ICONS = {
  title: 'M5 4v3h5.5v12h3V7H19V4H5z',
  text: 'M3 5h18v2H3V5m0 4h18v2H3V9m0 4h18v2H3v-2m0 4h12v2H3v-2z',
  titleText: 'M4 4h16v3H4V4m0 6h16v2H4v-2m0 4h16v2H4v-2m0 4h10v2H4v-2z',
  button: 'M4 8h16a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2v-4a2 2 0 0 1 2-2m3 3v2h10v-2H7z',
  image: 'M21 3H3C2 3 1 4 1 5v14a2 2 0 0 0 2 2h18c1 0 2-1 2-2V5c0-1-1-2-2-2M5 17l3.5-4.5 2.5 3 3.5-4.5 4.5 6H5z',
  columns1: 'M3 4h18v16H3V4m2 2v12h14V6H5z',
  columns2: 'M3 4h8v16H3V4m2 2v12h4V6H5m8-2h8v16h-8V4m2 2v12h4V6h-4z',
  columns3: 'M2 4h6v16H2V4m7 0h6v16H9V4m7 0h6v16h-6V4z',
  products: 'M3 11h8V3H3m0 18h8v-8H3m10 8h8v-8h-8m0-10v8h8V3',
  list: 'M2 14h6v6H2m14-12h-6v2h6M2 10h6V4H2m8 0v2h12V4m-12 16h6v-2h-6m0-2h12v-2H10',
  divider: 'M3 11h18v2H3v-2z',
  spacer: 'M8 3h8v2H8V3m0 16h8v2H8v-2m3-12h2v10h-2V7z',
  quote: 'M14 17h3l2-4V7h-6v6h3M6 17h3l2-4V7H5v6h3l-2 4z',
  link: 'M3.9 12c0-1.7 1.4-3.1 3.1-3.1h4V7H7a5 5 0 0 0 0 10h4v-1.9H7c-1.7 0-3.1-1.4-3.1-3.1M8 13h8v-2H8v2m9-6h-4v1.9h4c1.7 0 3.1 1.4 3.1 3.1s-1.4 3.1-3.1 3.1h-4V17h4a5 5 0 0 0 0-10z',
  footer: 'M3 4h18v16H3V4m2 2v8h14V6H5m0 10v2h14v-2H5z',
};

export const IDENTITY_FOOTER_BLOCK_ID = 'rodape';

/** Every block offered, in the order the panel lists them. */
export const EMAIL_BLOCKS: readonly EmailBlock[] = [
  {
    id: 'titulo',
    label: 'Título',
    hint: 'Uma chamada grande para abrir o assunto.',
    icon: ICONS.title,
    content: () =>
      `<h1 style="margin:0;padding:16px 24px 8px;${FONT}font-size:28px;line-height:34px;color:#111827;">Um título para a sua novidade</h1>`,
  },
  {
    id: 'texto',
    label: 'Texto',
    hint: 'Um parágrafo para contar o que você quer.',
    icon: ICONS.text,
    content: () => paragraph('Escreva aqui o que você quer contar aos seus clientes.'),
  },
  {
    id: 'titulo-texto',
    label: 'Título e texto',
    hint: 'Um subtítulo com um parágrafo logo abaixo.',
    icon: ICONS.titleText,
    content: () =>
      `<h2 style="margin:0;padding:16px 24px 4px;${FONT}font-size:22px;line-height:28px;color:#111827;">Subtítulo da seção</h2>${paragraph('Conte os detalhes: o que é, para quem é e por que vale a pena.')}`,
  },
  {
    id: 'botao',
    label: 'Botão',
    hint: 'Um botão de verdade, que funciona até no Outlook.',
    icon: ICONS.button,
    content: () => bulletproofButton({ text: 'Ver ofertas', href: 'https://www.exemplo.com.br' }),
  },
  {
    id: 'imagem',
    label: 'Imagem',
    hint: 'Uma foto larga; troque pela sua depois de inserir.',
    icon: ICONS.image,
    content: (origin) =>
      `<img src="${placeholder(origin, 'imagem-600x300.png')}" width="600" alt="Descreva a imagem para quem não consegue vê-la" style="display:block;width:100%;max-width:600px;height:auto;border:0;">`,
  },
  {
    id: 'coluna-1',
    label: 'Seção de 1 coluna',
    hint: 'Uma área de texto em toda a largura.',
    icon: ICONS.columns1,
    content: () => columns([100]),
  },
  {
    id: 'colunas-2',
    label: 'Seção de 2 colunas',
    hint: 'Duas colunas lado a lado (uma embaixo da outra no celular).',
    icon: ICONS.columns2,
    content: () => columns([50, 50]),
  },
  {
    id: 'colunas-3',
    label: 'Seção de 3 colunas',
    hint: 'Três colunas lado a lado (empilhadas no celular).',
    icon: ICONS.columns3,
    content: () => columns([33, 34, 33]),
  },
  {
    id: 'produtos',
    label: 'Grade de produtos',
    hint: 'Dois produtos com foto, nome e preço.',
    icon: ICONS.products,
    content: (origin) =>
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td class="col" width="50%" valign="top" style="width:50%;padding:12px 12px 12px 24px;">${productCard(origin)}</td><td class="col" width="50%" valign="top" style="width:50%;padding:12px 24px 12px 12px;">${productCard(origin)}</td></tr></table>`,
  },
  {
    id: 'lista',
    label: 'Lista de itens',
    hint: 'Itens com foto ao lado do texto.',
    icon: ICONS.list,
    content: (origin) => `${listItem(origin)}${listItem(origin)}`,
  },
  {
    id: 'citacao',
    label: 'Citação',
    hint: 'O depoimento de um cliente, em destaque.',
    icon: ICONS.quote,
    content: () =>
      `<blockquote style="margin:8px 24px;padding:12px 16px;border-left:4px solid #6d28d9;background:#f5f3ff;${TEXT_STYLE}font-style:italic;">“Atendimento excelente e entrega rápida. Recomendo!” — Cliente satisfeita</blockquote>`,
  },
  {
    id: 'link',
    label: 'Link',
    hint: 'Um link em uma linha de texto.',
    icon: ICONS.link,
    content: () =>
      `<p style="margin:0;padding:8px 24px;${TEXT_STYLE}"><a href="https://www.exemplo.com.br" target="_blank" style="color:#6d28d9;text-decoration:underline;">Saiba mais no nosso site</a></p>`,
  },
  {
    id: 'divisor',
    label: 'Divisor',
    hint: 'Uma linha fina para separar assuntos.',
    icon: ICONS.divider,
    content: () =>
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td style="padding:12px 24px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td style="border-top:1px solid #e5e7eb;font-size:1px;line-height:1px;height:1px;">&nbsp;</td></tr></table></td></tr></table>`,
  },
  {
    id: 'espaco',
    label: 'Espaço',
    hint: 'Um respiro vazio entre dois blocos.',
    icon: ICONS.spacer,
    content: () =>
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td style="height:24px;font-size:1px;line-height:1px;">&nbsp;</td></tr></table>`,
  },
  {
    id: IDENTITY_FOOTER_BLOCK_ID,
    label: 'Rodapé com identificação',
    hint: 'Razão social, CNPJ, endereço e o link de descadastro (obrigatório, um por e-mail).',
    icon: ICONS.footer,
    content: () => identityFooterTable(),
  },
];

/** The block by id (the panel's tiles and the tests use it). */
export function emailBlock(id: string): EmailBlock | undefined {
  return EMAIL_BLOCKS.find((block) => block.id === id);
}
