import { bulletproofButton, identityFooterTable, type StarterTemplate } from '@carteiro/shared';

/**
 * The gallery of pt-BR starter templates, one per occasion a small shop mails for. Each is table-based, 600 px
 * wide on desktop and fluid below (one media query; inline styles for clients that drop <style>), light and dark
 * safe (`color-scheme` plus a `prefers-color-scheme: dark` block that keeps text readable where a client darkens
 * the page), with a bulletproof button and the one identity footer (`identityFooterTable`: razão social,
 * CNPJ/CPF, address, the unsubscribe and browser links), which the visual editor shows as a locked block.
 * Pictures are left out on purpose: a starter must look right before the owner uploads their own.
 */

interface Theme {
  /** Button and headline colour (contrast ≥ 4.5:1 with white). */
  accent: string;
  /** The hero band's background (light). */
  tint: string;
}

const FONT = 'font-family:Arial,Helvetica,sans-serif;';

function layout(title: string, theme: Theme, body: string): string {
  return `<!DOCTYPE html>
<html lang="pt-BR" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${title}</title>
<style>
  body { margin: 0; padding: 0; background: #f3f4f6; }
  img { border: 0; display: block; max-width: 100%; height: auto; }
  a { color: ${theme.accent}; }
  @media only screen and (max-width: 620px) {
    .container { width: 100% !important; }
    .px { padding-left: 20px !important; padding-right: 20px !important; }
  }
  @media only screen and (max-width: 480px) {
    .col { display: block !important; width: 100% !important; box-sizing: border-box; padding-left: 0 !important; padding-right: 0 !important; }
    .h1 { font-size: 26px !important; line-height: 32px !important; }
  }
  @media (prefers-color-scheme: dark) {
    .page { background: #111827 !important; }
    .card { background: #1f2937 !important; color: #f3f4f6 !important; }
    .hero { background: #312e81 !important; }
    .card h1, .card h2, .card p, .card td { color: #f3f4f6 !important; }
    .carteiro-rodape, .carteiro-rodape a { color: #d1d5db !important; }
  }
</style>
</head>
<body class="page" style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6;">
  <tr>
    <td align="center" style="padding:24px 8px;">
      <table role="presentation" class="container card" width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px;max-width:600px;background:#ffffff;border-radius:8px;${FONT}color:#1f2937;">
${body}
        <tr>
          <td style="padding:0;">${identityFooterTable()}</td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>
`;
}

/** The coloured band at the top: a short label, the headline and one sentence. */
function hero(theme: Theme, label: string, headline: string, lead: string): string {
  return `        <tr>
          <td class="px hero" align="center" style="padding:40px 40px 28px;background:${theme.tint};border-radius:8px 8px 0 0;">
            <p style="margin:0;${FONT}font-size:13px;letter-spacing:1px;text-transform:uppercase;font-weight:bold;color:${theme.accent};">${label}</p>
            <h1 class="h1" style="margin:8px 0 12px;${FONT}font-size:32px;line-height:38px;color:#111827;">${headline}</h1>
            <p style="margin:0;${FONT}font-size:17px;line-height:26px;color:#374151;">${lead}</p>
          </td>
        </tr>`;
}

/** Paragraphs of the body, in one padded cell. */
function text(...paragraphs: string[]): string {
  return `        <tr>
          <td class="px" style="padding:24px 40px 8px;${FONT}font-size:16px;line-height:24px;color:#1f2937;">
${paragraphs.map((p) => `            <p style="margin:0 0 16px;">${p}</p>`).join('\n')}
          </td>
        </tr>`;
}

function button(theme: Theme, label: string): string {
  return `        <tr>
          <td class="px" style="padding:0 16px 24px;">${bulletproofButton({ text: label, href: 'https://www.exemplo.com.br', color: theme.accent })}</td>
        </tr>`;
}

/** Two highlights side by side (stacked on phones). */
function highlights(items: Array<[string, string]>): string {
  const cells = items
    .map(
      ([title, body], i) =>
        `<td class="col" width="50%" valign="top" style="width:50%;padding:${i === 0 ? '8px 12px 16px 0' : '8px 0 16px 12px'};${FONT}font-size:15px;line-height:22px;color:#1f2937;"><h2 style="margin:0 0 6px;${FONT}font-size:18px;line-height:24px;color:#111827;">${title}</h2><p style="margin:0;">${body}</p></td>`,
    )
    .join('');
  return `        <tr>
          <td class="px" style="padding:0 40px 16px;">
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>${cells}</tr></table>
          </td>
        </tr>`;
}

/** A coupon in a dashed box. */
function coupon(theme: Theme, code: string, note: string): string {
  return `        <tr>
          <td class="px" align="center" style="padding:0 40px 16px;">
            <p style="margin:0 0 8px;${FONT}font-size:15px;color:#374151;">Use o cupom na finalização da compra:</p>
            <p style="margin:0;display:inline-block;padding:12px 24px;border:2px dashed ${theme.accent};${FONT}font-size:24px;font-weight:bold;letter-spacing:4px;color:${theme.accent};">${code}</p>
            <p style="margin:8px 0 0;${FONT}font-size:12px;color:#4b5563;">${note}</p>
          </td>
        </tr>`;
}

const NAME = '{{ contato.nome | default: "cliente" }}';

const purple: Theme = { accent: '#6d28d9', tint: '#f5f3ff' };
const red: Theme = { accent: '#b91c1c', tint: '#fef2f2' };
const green: Theme = { accent: '#047857', tint: '#ecfdf5' };
const blue: Theme = { accent: '#1d4ed8', tint: '#eff6ff' };
const black: Theme = { accent: '#111827', tint: '#fef3c7' };
const pink: Theme = { accent: '#be185d', tint: '#fdf2f8' };
const teal: Theme = { accent: '#0f766e', tint: '#f0fdfa' };
const orange: Theme = { accent: '#c2410c', tint: '#fff7ed' };

/** One starter per occasion, in the order the gallery shows them. */
export const STARTER_TEMPLATES: readonly StarterTemplate[] = [
  {
    key: 'newsletter',
    name: 'Novidades da semana',
    description: 'Resumo do que mudou na loja: lançamentos, dicas e destaques.',
    subject: 'Novidades da semana para você, {{ contato.nome | default: "cliente" }}',
    html: layout(
      'Novidades da semana',
      blue,
      [
        hero(
          blue,
          'Novidades da semana',
          'O que chegou por aqui',
          `Olá, ${NAME}! Separamos o melhor da semana para você.`,
        ),
        highlights([
          ['Primeiro destaque', 'Um resumo curto do assunto, com um convite para ler mais.'],
          ['Segundo destaque', 'Outra novidade que interessa a quem acompanha a loja.'],
        ]),
        button(blue, 'Ver todas as novidades'),
      ].join('\n'),
    ),
  },
  {
    key: 'promocao',
    name: 'Promoção',
    description: 'Um desconto com prazo e cupom, para vender mais numa data qualquer.',
    subject: '{{ contato.nome | default: "Cliente" }}, 30% de desconto só até domingo',
    html: layout(
      'Oferta especial',
      red,
      [
        hero(red, 'Só até domingo', '30% de desconto', `${NAME}, esta oferta foi separada para você.`),
        coupon(red, 'PROMO30', 'Oferta válida enquanto durarem os estoques. Não cumulativa com outras promoções.'),
        button(red, 'Aproveitar agora'),
      ].join('\n'),
    ),
  },
  {
    key: 'anuncio',
    name: 'Comunicado',
    description: 'Um aviso importante: novo endereço, horário, lançamento ou evento.',
    subject: 'Temos uma novidade para contar',
    html: layout(
      'Comunicado',
      green,
      [
        hero(green, 'Comunicado', 'Temos uma novidade', `Olá, ${NAME}. Queremos contar em primeira mão.`),
        text(
          'Escreva aqui o seu anúncio — um lançamento, uma mudança de horário, um novo endereço ou um evento.',
          'Qualquer dúvida, é só responder este e-mail. Um abraço, equipe {{ conta.nome }}.',
        ),
        button(green, 'Saiba mais'),
      ].join('\n'),
    ),
  },
  {
    key: 'black-friday',
    name: 'Black Friday',
    description: 'A maior promoção do ano, com contagem de dias e cupom.',
    subject: 'Black Friday: até 50% de desconto, {{ contato.nome | default: "cliente" }}',
    html: layout(
      'Black Friday',
      black,
      [
        hero(
          black,
          'Black Friday',
          'Até 50% de desconto',
          'Os melhores preços do ano, só nesta sexta-feira e no fim de semana.',
        ),
        highlights([
          ['Frete grátis', 'Em compras acima de R$ 199,00 para todo o Brasil.'],
          ['Parcele sem juros', 'Em até 6 vezes no cartão, ou 5% de desconto no Pix.'],
        ]),
        coupon(black, 'BLACK50', 'Válido de sexta a domingo ou enquanto durarem os estoques.'),
        button(black, 'Ver as ofertas'),
      ].join('\n'),
    ),
  },
  {
    key: 'dia-das-maes',
    name: 'Dia das Mães',
    description: 'Sugestões de presente para o segundo domingo de maio.',
    subject: 'Um presente à altura dela: Dia das Mães na {{ conta.nome }}',
    html: layout(
      'Dia das Mães',
      pink,
      [
        hero(pink, 'Dia das Mães', 'Para quem cuida de tudo', `${NAME}, separamos presentes que ela vai adorar.`),
        highlights([
          ['Até R$ 100,00', 'Mimos para surpreender sem pesar no bolso.'],
          ['Kits especiais', 'Presentes prontos, com embalagem caprichada.'],
        ]),
        button(pink, 'Escolher o presente'),
      ].join('\n'),
    ),
  },
  {
    key: 'dia-dos-pais',
    name: 'Dia dos Pais',
    description: 'Presentes para o segundo domingo de agosto.',
    subject: 'Dia dos Pais: presentes que ele vai usar de verdade',
    html: layout(
      'Dia dos Pais',
      teal,
      [
        hero(
          teal,
          'Dia dos Pais',
          'Presente bom é presente usado',
          `${NAME}, veja nossas sugestões para o Dia dos Pais.`,
        ),
        highlights([
          ['Para o dia a dia', 'Praticidade para quem não para.'],
          ['Para curtir', 'Algo especial para o fim de semana dele.'],
        ]),
        button(teal, 'Ver sugestões'),
      ].join('\n'),
    ),
  },
  {
    key: 'natal',
    name: 'Natal',
    description: 'Presentes de fim de ano e os prazos de entrega antes do dia 25.',
    subject: 'Feliz Natal, {{ contato.nome | default: "cliente" }}! Presentes com entrega garantida',
    html: layout(
      'Natal',
      red,
      [
        hero(red, 'Natal', 'Boas festas!', `${NAME}, obrigado por estar com a gente neste ano.`),
        text(
          'Faça seus pedidos até o dia 18 de dezembro para receber antes do Natal.',
          'E se ficar na dúvida, nosso vale-presente chega na hora, por e-mail.',
        ),
        button(red, 'Ver presentes de Natal'),
      ].join('\n'),
    ),
  },
  {
    key: 'aniversario',
    name: 'Aniversário do cliente',
    description: 'Parabéns com um presente, para enviar no dia do aniversário (automação por data).',
    subject: 'Feliz aniversário, {{ contato.nome | default: "cliente" }}! Tem presente para você',
    html: layout(
      'Feliz aniversário',
      purple,
      [
        hero(purple, 'Feliz aniversário', `Parabéns, ${NAME}!`, 'Hoje o dia é seu, e o presente é nosso.'),
        coupon(purple, 'NIVER15', '15% de desconto em uma compra, válido por 7 dias.'),
        button(purple, 'Usar meu presente'),
      ].join('\n'),
    ),
  },
  {
    key: 'boas-vindas',
    name: 'Boas-vindas',
    description: 'O primeiro e-mail para quem acabou de se cadastrar.',
    subject: 'Boas-vindas à {{ conta.nome }}, {{ contato.nome | default: "cliente" }}!',
    html: layout(
      'Boas-vindas',
      purple,
      [
        hero(purple, 'Boas-vindas', 'Que bom ter você aqui', `Olá, ${NAME}! Obrigado por se cadastrar.`),
        text(
          'A partir de agora você fica sabendo antes de todo mundo das novidades e promoções da {{ conta.nome }}.',
          'Para começar bem, um presente: 10% de desconto na primeira compra com o cupom BEMVINDO.',
        ),
        button(purple, 'Conhecer a loja'),
      ].join('\n'),
    ),
  },
  {
    key: 'carrinho-abandonado',
    name: 'Carrinho abandonado',
    description: 'Um lembrete gentil para quem deixou produtos no carrinho.',
    subject: '{{ contato.nome | default: "Cliente" }}, você esqueceu algo no carrinho',
    html: layout(
      'Seu carrinho está esperando',
      orange,
      [
        hero(orange, 'Seu carrinho', 'Ficou alguma dúvida?', `${NAME}, guardamos os produtos que você escolheu.`),
        text(
          'Os itens do seu carrinho ainda estão reservados, mas o estoque é limitado.',
          'Se precisar de ajuda com tamanho, frete ou pagamento, é só responder este e-mail.',
        ),
        button(orange, 'Voltar ao carrinho'),
      ].join('\n'),
    ),
  },
  {
    key: 'reativacao',
    name: 'Sentimos sua falta',
    description: 'Para reconquistar quem não compra (ou não abre os e-mails) há algum tempo.',
    subject: 'Sentimos sua falta, {{ contato.nome | default: "cliente" }}',
    html: layout(
      'Sentimos sua falta',
      teal,
      [
        hero(teal, 'Faz tempo…', 'Sentimos sua falta', `${NAME}, muita coisa mudou desde a sua última visita.`),
        text('Preparamos um desconto especial para você voltar a nos visitar.'),
        coupon(teal, 'VOLTA20', '20% de desconto, válido por 15 dias.'),
        button(teal, 'Ver o que há de novo'),
      ].join('\n'),
    ),
  },
  {
    key: 'dia-do-cliente',
    name: 'Dia do Cliente',
    description: 'Um agradecimento em 15 de setembro, com uma vantagem exclusiva.',
    subject: 'Hoje é o seu dia, {{ contato.nome | default: "cliente" }}: obrigado!',
    html: layout(
      'Dia do Cliente',
      blue,
      [
        hero(
          blue,
          '15 de setembro',
          'Dia do Cliente',
          `${NAME}, a {{ conta.nome }} só existe por sua causa. Obrigado!`,
        ),
        coupon(blue, 'OBRIGADO', 'Frete grátis em qualquer compra, só hoje.'),
        button(blue, 'Aproveitar'),
      ].join('\n'),
    ),
  },
  {
    key: 'volta-as-aulas',
    name: 'Volta às aulas',
    description: 'Material, uniforme e mochila para o começo do ano letivo.',
    subject: 'Volta às aulas: lista de material com desconto',
    html: layout(
      'Volta às aulas',
      orange,
      [
        hero(
          orange,
          'Volta às aulas',
          'Tudo pronto para o ano letivo',
          `${NAME}, traga a lista: a gente separa para você.`,
        ),
        highlights([
          ['Lista completa', 'Envie a lista da escola e receba o orçamento no mesmo dia.'],
          ['Retire na loja', 'Ou receba em casa, com frete grátis acima de R$ 150,00.'],
        ]),
        button(orange, 'Enviar minha lista'),
      ].join('\n'),
    ),
  },
];
