import {
  type Context,
  ForTag,
  Liquid,
  type Liquid as LiquidType,
  type Parser,
  TablerowTag,
  type TagToken,
  type Template,
  type TopLevelToken,
} from 'liquidjs';

/**
 * The Liquid engines for sender templates. Sender templates are untrusted: no file system (include, render
 * and layout find nothing), limits on parse size, render time and memory, and only own properties are read.
 * HTML output escapes every `{{ }}` value (a contact named `<script>` stays text); subjects and the text part
 * are not HTML, so they are rendered unescaped.
 */
const NO_FILES = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('Modelos não podem incluir arquivos.');
  },
  readFileSync: () => {
    throw new Error('Modelos não podem incluir arquivos.');
  },
  resolve: (_root: string, file: string) => file,
};

/** Characters one render (one part of one message) may allocate through filters and escaping (liquidjs). */
export const LIQUID_MEMORY_LIMIT = 20_000_000;

const LIMITS = {
  fs: NO_FILES,
  root: [],
  partials: [],
  layouts: [],
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  parseLimit: 2_000_000,
  renderLimit: 1_000,
  memoryLimit: LIQUID_MEMORY_LIMIT,
  greedy: false,
  relativeReference: false,
};

/** Tags that would read other files: refused when the template is parsed, with a pt-BR message. */
const FORBIDDEN_TAGS = ['include', 'render', 'layout'] as const;

/**
 * Loop iterations one render (one part of one message) may run, whatever its data: the save-time check
 * (`loopCost` in validate-template.ts) refuses templates that could pass it, and the loops below stop a render
 * that does (data-dependent loops, e.g. over an API event's items) with a RenderError.
 */
export const LIQUID_ITERATION_BUDGET = 10_000;

export class IterationBudgetError extends Error {
  constructor() {
    super(`o modelo passou de ${LIQUID_ITERATION_BUDGET.toLocaleString('pt-BR')} repetições de laço numa mensagem`);
  }
}

const ITERATIONS_REGISTER = 'carteiro-iterations';

/**
 * A template run first in every iteration of a loop: it only counts, against the render's budget. It carries the
 * loop's own token, so a render stopped here reports the loop's line.
 */
function iterationCounter(loop: TagToken): Template {
  return {
    token: loop,
    render(ctx: Context) {
      const counter = ctx.getRegister(ITERATIONS_REGISTER, { n: 0 }) as { n: number };
      counter.n += 1;
      if (counter.n > LIQUID_ITERATION_BUDGET) throw new IterationBudgetError();
      return '';
    },
  };
}

/** `for` and `tablerow` exactly as liquidjs has them, counting each iteration. */
class BudgetedForTag extends ForTag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: LiquidType, parser: Parser) {
    super(token, remainTokens, liquid, parser);
    this.templates.unshift(iterationCounter(token));
  }
}
class BudgetedTablerowTag extends TablerowTag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: LiquidType, parser: Parser) {
    super(token, remainTokens, liquid, parser);
    this.templates.unshift(iterationCounter(token));
  }
}

function createEngine(options: Record<string, unknown>): Liquid {
  const engine = new Liquid({ ...LIMITS, ...options });
  engine.registerTag('for', BudgetedForTag);
  engine.registerTag('tablerow', BudgetedTablerowTag);
  for (const tag of FORBIDDEN_TAGS) {
    engine.registerTag(tag, {
      parse() {
        throw new Error(`a tag "${tag}" não é permitida em modelos de e-mail`);
      },
      render() {
        return '';
      },
    });
  }
  return engine;
}

export const htmlLiquid = createEngine({ outputEscape: 'escape' });
export const textLiquid = createEngine({});
