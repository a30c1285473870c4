import { API_KEY_PREFIX } from '@carteiro/shared';
import { Fragment, type ReactNode, useId, useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Textarea } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { type MessageKey, useI18n } from '@/lib/i18n';

/**
 * Our own reader of `/api/v1/openapi.json`: every label is ours (pt-BR), it runs no code of a third party, and it
 * reads only what our generator writes (OpenAPI 3.1, named schemas in components, `x-codeSamples`).
 */

type Json = Record<string, unknown>;
export interface OpenApiDocument {
  info: { title: string; description?: string };
  tags?: { name: string }[];
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json>; parameters?: Record<string, Json> };
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema?: Json;
}

interface OperationView {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  parameters: Parameter[];
  body?: { schema: Json; example?: unknown };
  responses: Array<{ status: string; description: string }>;
  samples: Array<{ label: string; source: string }>;
  sendOnly: boolean;
}

const REF_PREFIX = '#/components/';

function resolveRef<T>(doc: OpenApiDocument, value: unknown): T {
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) return value as T;
  const [kind, name] = ref.slice(REF_PREFIX.length).split('/') as ['schemas' | 'parameters', string];
  return (doc.components?.[kind]?.[name] ?? {}) as T;
}

/** The operations of the document, in its order. */
export function operationsOf(doc: OpenApiDocument): OperationView[] {
  const out: OperationView[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const content = (op.requestBody as { content?: Record<string, Json> } | undefined)?.content?.['application/json'];
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId ?? `${method}-${path}`),
        summary: String(op.summary ?? path),
        description: op.description as string | undefined,
        tag: ((op.tags as string[] | undefined) ?? [''])[0] ?? '',
        parameters: ((op.parameters as Json[] | undefined) ?? []).map((p) => resolveRef<Parameter>(doc, p)),
        body: content ? { schema: content.schema as Json, example: content.example } : undefined,
        responses: Object.entries((op.responses ?? {}) as Record<string, { description?: string }>).map(
          ([status, response]) => ({ status, description: response.description ?? '' }),
        ),
        samples: ((op['x-codeSamples'] as Array<{ label: string; source: string }> | undefined) ?? []).map((s) => ({
          label: s.label,
          source: s.source,
        })),
        sendOnly: op['x-carteiro-send-only'] === true,
      });
    }
  }
  return out;
}

const TYPE_KEYS: Record<string, MessageKey> = {
  string: 'apiKeys.docs.type.string',
  integer: 'apiKeys.docs.type.integer',
  number: 'apiKeys.docs.type.number',
  boolean: 'apiKeys.docs.type.boolean',
  object: 'apiKeys.docs.type.object',
  null: 'apiKeys.docs.type.null',
};

/** A schema's type in words ("texto ou nulo", "lista de Contact", "um de: a, b"). */
function useTypeLabel(doc: OpenApiDocument) {
  const { t } = useI18n();
  const label = (schema: Json | undefined, depth = 0): string => {
    if (!schema || depth > 4) return t('apiKeys.docs.type.any');
    if (typeof schema.$ref === 'string') return schema.$ref.split('/').at(-1) ?? '';
    if (Array.isArray(schema.enum)) return t('apiKeys.docs.type.enum', { values: schema.enum.join(', ') });
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
    if (types.length >= 6) return t('apiKeys.docs.type.any');
    if (types.length === 0) {
      const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
      if (union) return union.map((s) => label(s, depth + 1)).join(t('apiKeys.docs.type.or'));
      return t('apiKeys.docs.type.any');
    }
    return types
      .map((type) =>
        type === 'array'
          ? t('apiKeys.docs.type.array', { item: label(resolveRef(doc, (schema.items ?? {}) as Json), depth + 1) })
          : TYPE_KEYS[type]
            ? t(TYPE_KEYS[type] as MessageKey)
            : type,
      )
      .join(t('apiKeys.docs.type.or'));
  };
  return label;
}

/** Our descriptions use a small part of Markdown: paragraphs, `code`, **bold** and *emphasis*. */
export function MarkdownText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={cn('space-y-2', className)}>
      {text.split(/\n{2,}/).map((paragraph, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of a fixed text, never reordered
        <p key={i}>{inline(paragraph)}</p>
      ))}
    </div>
  );
}

function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*)/g).map((part, i) => {
    const key = `${i}-${part}`;
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
      return (
        <code key={key} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
          {part.slice(1, -1)}
        </code>
      );
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3)
      return <strong key={key}>{part.slice(2, -2)}</strong>;
    if (part.startsWith('*') && part.endsWith('*') && part.length > 1) return <em key={key}>{part.slice(1, -1)}</em>;
    return <Fragment key={key}>{part}</Fragment>;
  });
}

const METHOD_TONES: Record<string, 'brand' | 'success' | 'warning' | 'danger' | 'neutral'> = {
  GET: 'brand',
  POST: 'success',
  PUT: 'warning',
  PATCH: 'warning',
  DELETE: 'danger',
};

/** The whole reference: the document's introduction, a menu of its groups and the operations of the open one. */
export function OpenApiViewer({ doc }: { doc: OpenApiDocument }) {
  const { t } = useI18n();
  const operations = operationsOf(doc);
  const tags = (doc.tags?.map((tag) => tag.name) ?? []).filter((tag) => operations.some((op) => op.tag === tag));
  const [openTag, setOpenTag] = useState(tags[0] ?? '');
  const [apiKey, setApiKey] = useState('');
  const keyId = useId();
  return (
    <div className="space-y-6">
      <Card className="space-y-4 p-5 text-sm text-slate-700">
        <h2 className="text-lg font-semibold text-slate-900">{doc.info.title}</h2>
        {doc.info.description ? <MarkdownText text={doc.info.description} /> : null}
        <div className="max-w-xl">
          <label htmlFor={keyId} className="mb-1 block text-sm font-medium text-slate-800">
            {t('apiKeys.docs.key')}
          </label>
          <Input
            id={keyId}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value.trim())}
            placeholder={`${API_KEY_PREFIX}…`}
          />
        </div>
      </Card>
      <div className="grid gap-6 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <nav aria-label={t('apiKeys.docs.groups')} className="lg:sticky lg:top-4 lg:self-start">
          <ul className="flex flex-wrap gap-2 lg:flex-col">
            {tags.map((tag) => (
              <li key={tag}>
                <button
                  type="button"
                  aria-pressed={tag === openTag}
                  onClick={() => setOpenTag(tag)}
                  className={cn(
                    'w-full rounded-lg px-3 py-2 text-left text-sm font-medium',
                    tag === openTag ? 'bg-brand-100 text-brand-900' : 'text-slate-700 hover:bg-slate-100',
                  )}
                >
                  {tag}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-6">
          {operations
            .filter((op) => op.tag === openTag)
            .map((op) => (
              <OperationCard key={`${op.method} ${op.path}`} doc={doc} op={op} apiKey={apiKey} />
            ))}
        </div>
      </div>
    </div>
  );
}

function OperationCard({ doc, op, apiKey }: { doc: OpenApiDocument; op: OperationView; apiKey: string }) {
  const { t } = useI18n();
  const typeLabel = useTypeLabel(doc);
  const headingId = useId();
  const bodySchema = op.body ? resolveRef<Json>(doc, op.body.schema) : undefined;
  const bodyFields = Object.entries((bodySchema?.properties ?? {}) as Record<string, Json>);
  const required = new Set((bodySchema?.required ?? []) as string[]);
  const th = 'px-3 py-2 text-left text-xs font-semibold text-slate-600';
  const td = 'border-t border-slate-100 px-3 py-2 align-top';
  return (
    <Card role="region" className="space-y-4 p-5 text-sm text-slate-700" aria-labelledby={headingId}>
      <div className="space-y-1">
        <h3 id={headingId} className="text-base font-semibold text-slate-900">
          {op.summary}
        </h3>
        <p className="flex flex-wrap items-center gap-2">
          <Badge tone={METHOD_TONES[op.method] ?? 'neutral'}>{op.method}</Badge>
          <code className="break-all font-mono text-slate-800">{op.path}</code>
          {op.sendOnly ? <span className="text-xs text-slate-500">{t('apiKeys.docs.sendOnly')}</span> : null}
        </p>
      </div>
      {op.description ? <MarkdownText text={op.description} /> : null}
      {op.parameters.length ? (
        <section className="space-y-2">
          <h4 className="font-semibold text-slate-900">{t('apiKeys.docs.parameters')}</h4>
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table className="w-full min-w-[32rem]">
              <thead className="bg-slate-50">
                <tr>
                  <th className={th}>{t('apiKeys.docs.col.name')}</th>
                  <th className={th}>{t('apiKeys.docs.col.in')}</th>
                  <th className={th}>{t('apiKeys.docs.col.type')}</th>
                  <th className={th}>{t('apiKeys.docs.col.description')}</th>
                </tr>
              </thead>
              <tbody>
                {op.parameters.map((p) => (
                  <tr key={`${p.in}-${p.name}`}>
                    <td className={td}>
                      <code className="font-mono text-slate-900">{p.name}</code>
                      {p.required ? (
                        <span className="ml-1 text-xs text-red-700">{t('apiKeys.docs.required')}</span>
                      ) : null}
                    </td>
                    <td className={td}>{t(`apiKeys.docs.in.${p.in}` as MessageKey)}</td>
                    <td className={td}>{typeLabel(p.schema)}</td>
                    <td className={td}>{p.description ?? (p.schema?.description as string | undefined) ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {bodyFields.length ? (
        <section className="space-y-2">
          <h4 className="font-semibold text-slate-900">{t('apiKeys.docs.requestBody')}</h4>
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table className="w-full min-w-[32rem]">
              <thead className="bg-slate-50">
                <tr>
                  <th className={th}>{t('apiKeys.docs.col.field')}</th>
                  <th className={th}>{t('apiKeys.docs.col.type')}</th>
                  <th className={th}>{t('apiKeys.docs.col.description')}</th>
                </tr>
              </thead>
              <tbody>
                {bodyFields.map(([name, schema]) => (
                  <tr key={name}>
                    <td className={td}>
                      <code className="font-mono text-slate-900">{name}</code>
                      {required.has(name) ? (
                        <span className="ml-1 text-xs text-red-700">{t('apiKeys.docs.required')}</span>
                      ) : null}
                    </td>
                    <td className={td}>{typeLabel(schema)}</td>
                    <td className={td}>{(schema.description as string | undefined) ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      <section className="space-y-2">
        <h4 className="font-semibold text-slate-900">{t('apiKeys.docs.responses')}</h4>
        <dl className="space-y-2">
          {op.responses.map((r) => (
            <div key={r.status} className="flex gap-3">
              <dt>
                <Badge tone={r.status.startsWith('2') ? 'success' : 'neutral'}>{r.status}</Badge>
              </dt>
              <dd className="min-w-0 flex-1">
                <MarkdownText text={r.description} />
              </dd>
            </div>
          ))}
        </dl>
      </section>
      {op.samples.length ? <CodeSamples samples={op.samples} /> : null}
      <TryIt op={op} apiKey={apiKey} />
    </Card>
  );
}

function CodeSamples({ samples }: { samples: Array<{ label: string; source: string }> }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(0);
  const sample = samples[open] ?? samples[0];
  if (!sample) return null;
  return (
    <section className="space-y-2">
      <h4 className="font-semibold text-slate-900">{t('apiKeys.docs.samples')}</h4>
      <div className="flex flex-wrap gap-2">
        {samples.map((s, i) => (
          <Button
            key={s.label}
            size="sm"
            variant={i === open ? 'secondary' : 'ghost'}
            aria-pressed={i === open}
            onClick={() => setOpen(i)}
          >
            {s.label}
          </Button>
        ))}
        {/* Keyed by sample: switching language resets "Copiado". */}
        <CopyButton key={sample.label} text={sample.source} />
      </div>
      <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100">
        <code>{sample.source}</code>
      </pre>
    </section>
  );
}

/** "Testar": the operation called from this page with the key pasted above (a real call on the account). */
function TryIt({ op, apiKey }: { op: OperationView; apiKey: string }) {
  const { t } = useI18n();
  const formId = useId();
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const [values, setValues] = useState<Record<string, string>>({});
  const [query, setQuery] = useState('');
  const [body, setBody] = useState(op.body ? JSON.stringify(op.body.example ?? {}, null, 2) : '');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ status?: number; text: string } | null>(null);

  async function send() {
    if (!apiKey) {
      setAnswer({ text: t('apiKeys.docs.needKey') });
      return;
    }
    if (op.body) {
      try {
        JSON.parse(body);
      } catch {
        setAnswer({ text: t('apiKeys.docs.bodyInvalid') });
        return;
      }
    }
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));
    const search = query.trim().replace(/^\?/, '');
    setBusy(true);
    try {
      const response = await fetch(`/api/v1${path}${search ? `?${search}` : ''}`, {
        method: op.method,
        credentials: 'omit',
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(op.body ? { 'content-type': 'application/json' } : {}),
        },
        body: op.body ? body : undefined,
      });
      const text = await response.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (a 204 has no body): shown as it came.
      }
      setAnswer({ status: response.status, text: pretty });
    } catch (error) {
      setAnswer({ text: t('apiKeys.docs.networkError', { message: String((error as Error).message ?? error) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="rounded-lg border border-slate-200 p-3">
      <summary className="cursor-pointer font-semibold text-brand-800">{t('apiKeys.docs.try')}</summary>
      <form
        className="mt-3 space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        {pathParams.map((p) => (
          <div key={p.name}>
            <label htmlFor={`${formId}-${p.name}`} className="mb-1 block text-sm font-medium text-slate-800">
              {p.name}
            </label>
            <Input
              id={`${formId}-${p.name}`}
              value={values[p.name] ?? ''}
              onChange={(event) => setValues({ ...values, [p.name]: event.target.value })}
              required
            />
          </div>
        ))}
        {op.parameters.some((p) => p.in === 'query') ? (
          <div>
            <label htmlFor={`${formId}-query`} className="mb-1 block text-sm font-medium text-slate-800">
              {t('apiKeys.docs.query')}
            </label>
            <Input
              id={`${formId}-query`}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder="limit=10"
            />
          </div>
        ) : null}
        {op.body ? (
          <div>
            <label htmlFor={`${formId}-body`} className="mb-1 block text-sm font-medium text-slate-800">
              {t('apiKeys.docs.requestBody')}
            </label>
            <Textarea
              id={`${formId}-body`}
              rows={8}
              className="font-mono text-xs"
              spellCheck={false}
              value={body}
              onChange={(event) => setBody(event.target.value)}
            />
          </div>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? t('apiKeys.docs.sending') : t('apiKeys.docs.send')}
        </Button>
        {answer ? (
          <div aria-live="polite" className="space-y-1">
            {answer.status !== undefined ? (
              <p className="font-medium text-slate-900">{t('apiKeys.docs.answer', { status: answer.status })}</p>
            ) : null}
            <pre className="max-h-80 overflow-auto rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-800">
              {answer.text}
            </pre>
          </div>
        ) : null}
      </form>
    </details>
  );
}
