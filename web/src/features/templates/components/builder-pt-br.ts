import pt from 'grapesjs/locale/pt.mjs';

/**
 * Everything the visual builder shows, in pt-BR: GrapesJS's own pt locale completed where it is missing or
 * still English (states, sub-properties, option lists), plus the blocks, style sectors and properties that the
 * newsletter preset names in English. GrapesJS looks labels up here before a block's or property's own name.
 */

/** Texts of the newsletter preset's own options (modals, confirmations). */
export const NEWSLETTER_PRESET_OPTIONS = {
  modalTitleImport: 'Importar HTML',
  modalTitleExport: 'Código do e-mail',
  modalLabelImport: 'Cole aqui o HTML do seu e-mail',
  modalLabelExport: 'Copie o código do e-mail',
  modalBtnImport: 'Importar',
  textCleanCanvas: 'Quer mesmo apagar todo o conteúdo do e-mail?',
};

/** The text toolbar (shown over a text being edited), with pt-BR names; Ctrl+B/I/U work from the keyboard. */
export const RICH_TEXT_ACTIONS = [
  { name: 'bold', icon: '<b>N</b>', attributes: { title: 'Negrito (Ctrl+B)', 'aria-label': 'Negrito' } },
  { name: 'italic', icon: '<i>I</i>', attributes: { title: 'Itálico (Ctrl+I)', 'aria-label': 'Itálico' } },
  { name: 'underline', icon: '<u>S</u>', attributes: { title: 'Sublinhado (Ctrl+U)', 'aria-label': 'Sublinhado' } },
  { name: 'strikethrough', icon: '<s>R</s>', attributes: { title: 'Riscado', 'aria-label': 'Riscado' } },
  { name: 'link', attributes: { title: 'Link', 'aria-label': 'Link', style: 'font-size:1.4rem;padding:0 4px 2px;' } },
];

/** Names of the canvas toolbar's buttons (over the selected block), by GrapesJS command. */
export const TOOLBAR_TITLES: Record<string, string> = {
  parent: 'Selecionar o bloco acima',
  'tlb-move': 'Arrastar para mover',
  'tlb-clone': 'Duplicar',
  'tlb-delete': 'Excluir',
};

const sectors: Record<string, string> = {
  general: 'Geral',
  layout: 'Disposição',
  typography: 'Tipografia',
  decorations: 'Decoração',
  extra: 'Extra',
  flex: 'Flex',
  dimension: 'Dimensões',
  // The preset's sectors have no id: GrapesJS uses their (English) name.
  Dimension: 'Dimensões',
  Typography: 'Tipografia',
  Decorations: 'Decoração',
};

const properties: Record<string, string> = {
  padding: 'Espaçamento interno',
  'min-height': 'Altura mínima',
  'font-family': 'Fonte',
  'font-weight': 'Peso da fonte',
  'font-style': 'Estilo da fonte',
  'text-decoration': 'Decoração do texto',
  'vertical-align': 'Alinhamento vertical',
  'border-collapse': 'Bordas da tabela juntas',
  'background-attachment': 'Fixação do fundo',
  'text-shadow-h': 'Posição X',
  'text-shadow-v': 'Posição Y',
  'text-shadow-blur': 'Desfoque',
  'text-shadow-color': 'Cor',
  'transition-property-sub': 'Propriedade',
  'transition-duration-sub': 'Duração',
  'transition-timing-function-sub': 'Ritmo',
  'background-image-sub': 'Imagem',
  'background-repeat-sub': 'Repetição',
  'background-position-sub': 'Posição',
  'background-attachment-sub': 'Fixação',
  'background-size-sub': 'Tamanho',
  'border-top-left-radius': 'Superior esquerda',
  'border-top-right-radius': 'Superior direita',
  'border-bottom-left-radius': 'Inferior esquerda',
  'border-bottom-right-radius': 'Inferior direita',
  'border-width': 'Largura',
  'border-style': 'Estilo',
  'border-color': 'Cor',
  'background-image': 'Imagem',
  'background-repeat': 'Repetição',
  'background-position': 'Posição',
  'background-size': 'Tamanho',
  'margin-top': 'Superior',
  'margin-right': 'Direita',
  'margin-bottom': 'Inferior',
  'margin-left': 'Esquerda',
  'padding-top': 'Superior',
  'padding-right': 'Direita',
  'padding-bottom': 'Inferior',
  'padding-left': 'Esquerda',
};

const options: Record<string, Record<string, string>> = {
  'font-weight': {
    '100': 'Fina',
    '200': 'Extra fina',
    '300': 'Leve',
    '400': 'Normal',
    '500': 'Média',
    '600': 'Seminegrito',
    '700': 'Negrito',
    '800': 'Extra negrito',
    '900': 'Ultra negrito',
  },
  'text-align': { left: 'Esquerda', center: 'Centro', right: 'Direita', justify: 'Justificado' },
  'text-decoration': { none: 'Nenhuma', underline: 'Sublinhado', 'line-through': 'Riscado' },
  'font-style': { normal: 'Normal', italic: 'Itálico' },
  'vertical-align': { baseline: 'Linha de base', top: 'Topo', middle: 'Meio', bottom: 'Base' },
  'border-collapse': { separate: 'Não', collapse: 'Sim' },
  'border-style': {
    none: 'Nenhuma',
    solid: 'Contínua',
    dotted: 'Pontilhada',
    dashed: 'Tracejada',
    double: 'Dupla',
    groove: 'Entalhada',
    ridge: 'Em relevo',
    inset: 'Rebaixada',
    outset: 'Saliente',
  },
  'background-repeat': {
    repeat: 'Repetir',
    'repeat-x': 'Repetir na horizontal',
    'repeat-y': 'Repetir na vertical',
    'no-repeat': 'Não repetir',
  },
  'background-attachment': { scroll: 'Rola com a página', fixed: 'Fixo', local: 'Local' },
  'background-size': { auto: 'Automático', cover: 'Cobrir', contain: 'Conter' },
  'background-position': {
    'left top': 'Esquerda, topo',
    'left center': 'Esquerda, centro',
    'left bottom': 'Esquerda, base',
    'right top': 'Direita, topo',
    'right center': 'Direita, centro',
    'right bottom': 'Direita, base',
    'center top': 'Centro, topo',
    'center center': 'Centro',
    'center bottom': 'Centro, base',
  },
  display: { block: 'Bloco', inline: 'Em linha', 'inline-block': 'Bloco em linha', flex: 'Flex', none: 'Oculto' },
  float: { none: 'Nenhum', left: 'Esquerda', right: 'Direita' },
  position: { static: 'Estática', relative: 'Relativa', absolute: 'Absoluta', fixed: 'Fixa' },
};

type Messages = Record<string, unknown>;
const base = pt as Messages & {
  styleManager: Messages & { properties: Messages };
  traitManager: Messages & { traits: Messages & { labels: Messages; options: Messages } };
  domComponents: Messages & { names: Messages };
};

export const GRAPESJS_PT_BR: Messages = {
  ...base,
  domComponents: { ...base.domComponents, names: { ...base.domComponents.names, '': 'Caixa', label: 'Rótulo' } },
  selectorManager: {
    label: 'Classes',
    selected: 'Selecionado',
    emptyState: '- Estado -',
    states: { hover: 'Ao passar o mouse', active: 'Ao clicar', 'nth-of-type(2n)': 'Pares/ímpares' },
  },
  styleManager: {
    ...base.styleManager,
    sectors,
    properties: { ...base.styleManager.properties, ...properties },
    options,
  },
  traitManager: {
    ...base.traitManager,
    traits: {
      ...base.traitManager.traits,
      labels: { ...base.traitManager.traits.labels, id: 'Id', alt: 'Texto alternativo', title: 'Título', href: 'Link' },
    },
  },
  storageManager: { recover: 'Quer recuperar as alterações não salvas?' },
};
