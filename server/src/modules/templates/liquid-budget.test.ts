import { describe, expect, it } from 'vitest';
import { LIQUID_ITERATION_BUDGET } from './liquid-engine';
import { buildScope, compileCampaign, renderMessage } from './render-message';
import { UNKNOWN_COLLECTION_SIZE, validateTemplate } from './validate-template';

const ACCOUNT = { name: 'Padaria' };
const LINKS = { unsubscribeUrl: 'https://x.test/u', browserUrl: 'https://x.test/v' };

const loopProblem = (html: string) => validateTemplate({ html }, null).find((p) => p.message.includes('laços'));

describe('the Liquid iteration budget, checked when a template is saved', () => {
  it('refuses nested loops that could run away, at the line of the loop, in pt-BR', () => {
    const problem = loopProblem(
      '<p>Oi</p>\n{% for i in (1..1000) %}{% for j in (1..1000) %}{{ j }}{% endfor %}{% endfor %}',
    );
    expect(problem).toEqual({
      part: 'html',
      line: 2,
      message:
        'Linha 2: os laços do modelo podem repetir até 1.001.000 vezes numa mensagem; o limite é 10.000. Use menos laços um dentro do outro ou limite-os com limit: (por exemplo, {% for item in lista limit: 20 %}).',
    });
    // Over data of unknown size (a custom field, an API event's list), each loop counts as UNKNOWN_COLLECTION_SIZE.
    expect(
      loopProblem('{% for a in contato.itens %}{% for b in contato.itens %}x{% endfor %}{% endfor %}'),
    ).toBeDefined();
    expect(UNKNOWN_COLLECTION_SIZE ** 2).toBeGreaterThan(LIQUID_ITERATION_BUDGET);
    // tablerow, and loops hidden in an if, count the same.
    expect(
      loopProblem(
        '{% if contato.nome %}{% tablerow a in (1..200) %}{% for b in (1..200) %}x{% endfor %}{% endtablerow %}{% endif %}',
      ),
    ).toBeDefined();
    // Loops one after another add up: the problem is where the sum crosses the budget.
    const sequence = Array.from({ length: 12 }, () => '{% for i in (1..1000) %}x{% endfor %}').join('\n');
    expect(loopProblem(sequence)?.line).toBe(11);
    // Subjects and the text part are checked as well.
    expect(validateTemplate({ subject: '{% for i in (1..100000) %}x{% endfor %}' }, null)[0]?.message).toMatch(
      /^Assunto, linha 1: os laços do modelo podem repetir até 100\.000 vezes/,
    );
  });

  it('accepts what newsletters do: one loop, bounded nesting, or limit:', () => {
    expect(loopProblem('{% for item in evento.itens %}{{ item.nome }}{% endfor %}')).toBeUndefined();
    expect(loopProblem('{% for i in (1..5000) %}{{ i }}{% endfor %}')).toBeUndefined();
    expect(
      loopProblem(
        '{% for a in evento.itens limit: 20 %}{% for b in a.variantes limit: 20 %}{{ b }}{% endfor %}{% endfor %}',
      ),
    ).toBeUndefined();
    expect(loopProblem('{% for i in (1..100) %}{% for j in (1..98) %}{{ j }}{% endfor %}{% endfor %}')).toBeUndefined();
  });
});

describe('the Liquid iteration budget, enforced while rendering', () => {
  const render = (html: string, fields: Record<string, unknown>) =>
    renderMessage(
      compileCampaign({ subject: 'Oi', html }),
      buildScope({ email: 'ana@example.com', name: 'Ana', fields }, ACCOUNT, LINKS),
    );

  it('stops a loop whose data is larger than the budget, naming the loop’s line', () => {
    const html = '<p>Itens</p>\n{% for item in contato.itens %}{% if forloop.last %}{{ item }}{% endif %}{% endfor %}';
    expect(loopProblem(html)).toBeUndefined(); // one loop over unknown data passes the save-time check…
    const huge = Array.from({ length: LIQUID_ITERATION_BUDGET + 1 }, (_, i) => i);
    expect(() => render(html, { itens: huge })).toThrow(
      /o modelo passou de 10\.000 repetições de laço numa mensagem, line:2/,
    ); // …and the render stops it
    expect(render(html, { itens: huge.slice(0, LIQUID_ITERATION_BUDGET) }).html).toContain('9999');
  });

  it('counts per render: every message starts with the whole budget', () => {
    const compiled = compileCampaign({ subject: 'Oi', html: '{% for i in (1..6000) %}.{% endfor %}' });
    const scope = buildScope({ email: 'ana@example.com' }, ACCOUNT, LINKS);
    for (let n = 0; n < 3; n++) expect(renderMessage(compiled, scope).html).toHaveLength(6000);
  });
});
