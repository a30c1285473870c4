import { Liquid } from 'liquidjs';

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
  memoryLimit: 20_000_000,
  greedy: false,
  relativeReference: false,
};

/** Tags that would read other files: refused when the template is parsed, with a pt-BR message. */
const FORBIDDEN_TAGS = ['include', 'render', 'layout'] as const;

function createEngine(options: Record<string, unknown>): Liquid {
  const engine = new Liquid({ ...LIMITS, ...options });
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
