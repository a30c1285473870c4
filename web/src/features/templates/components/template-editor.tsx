import { TEST_SEND_MAX_RECIPIENTS } from '@carteiro/shared';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { formatNumber, pluralForm, Select, Textarea } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { useContacts } from '@/lib/queries/contacts';
import { fillSample, type SampleContact } from '@/lib/sample-liquid';
import { toast } from '@/stores/app-store';
import { useFooterAccount } from '../api/use-footer-account';
import { BASE_MERGE_TAGS, customFieldTags, dataVariableTags } from './merge-tags';
import type { VisualBuilderHandle } from './visual-builder';

// GrapesJS (+ preset, ~300 KB) is fetched only when an editor shows the visual mode.
const VisualBuilder = lazy(() => import('./visual-builder'));

export interface EditorContent {
  html: string;
  project: Record<string, unknown> | null;
}

type Mode = 'visual' | 'code' | 'preview';

export interface TemplateEditorProps {
  initial: EditorContent;
  onSave: (content: EditorContent) => Promise<void>;
  /** Server rendering (real Liquid) of the saved content; without it the preview fills sample data on the client. */
  renderPreview?: (content: EditorContent, contactId: string | null) => Promise<string>;
  onTestSend?: (content: EditorContent, emails: string[], contactId: string | null) => Promise<number>;
  readOnly?: boolean;
  /** The template's declared per-message variables: offered in the insert menu as `{{ dados.<nome> }}`. */
  variables?: readonly string[];
}

/**
 * The template editor: visual builder (GrapesJS newsletter preset), HTML code mode, merge-tag menu, preview at
 * 600 px / 375 px in a sandboxed iframe with sample data or a chosen contact, test send, save (Liquid checked by
 * the server, its pt-BR error with the line shown here).
 */
export function TemplateEditor({
  initial,
  onSave,
  renderPreview,
  onTestSend,
  readOnly,
  variables = [],
}: TemplateEditorProps) {
  const { t } = useI18n();
  const [mode, setMode] = useState<Mode>('visual');
  const [content, setContent] = useState<EditorContent>(initial);
  const [builderKey, setBuilderKey] = useState(0);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const builder = useRef<VisualBuilderHandle>(null);
  const code = useRef<HTMLTextAreaElement>(null);
  const contacts = useContacts({});
  const account = useFooterAccount();
  const contactRows = contacts.data?.pages[0]?.items ?? [];
  const fieldNames = [...new Set(contactRows.flatMap((c) => Object.keys(c.fields)))];
  const tags = [...BASE_MERGE_TAGS, ...customFieldTags(fieldNames), ...dataVariableTags(variables)];

  /** The current content, read from the builder when it is the one being edited. */
  function current(): EditorContent {
    if (mode === 'visual' && builder.current) {
      return { html: builder.current.getHtml(), project: builder.current.getProject() };
    }
    return content;
  }

  async function switchTo(next: Mode) {
    if (next === mode) return;
    await builder.current?.flush();
    const now = current();
    setContent(now);
    if (next === 'visual' && mode === 'code') setBuilderKey((k) => k + 1);
    setMode(next);
  }

  function insertTag(tag: string) {
    if (!tag) return;
    if (mode === 'visual') {
      if (builder.current && !builder.current.insertText(tag)) {
        toast({ title: t('templates.editor.insertTagWhere'), variant: 'default' });
      }
    } else if (mode === 'code') {
      const area = code.current;
      const start = area?.selectionStart ?? content.html.length;
      const end = area?.selectionEnd ?? start;
      // Code edits drop the builder project: the builder rebuilds from the HTML.
      setContent({ html: content.html.slice(0, start) + tag + content.html.slice(end), project: null });
    }
  }

  async function save() {
    await builder.current?.flush();
    const now = current();
    setContent(now);
    setSaving(true);
    setError(null);
    try {
      await onSave(now);
      toast({ title: t('templates.editor.saved'), variant: 'success' });
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          className="inline-flex rounded-lg border border-slate-200 bg-white p-1"
          role="tablist"
          aria-label={t('templates.editor.modes')}
        >
          {(
            [
              ['visual', 'templates.editor.visual'],
              ['code', 'templates.editor.code'],
              ['preview', 'templates.editor.preview'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={mode === value}
              onClick={() => void switchTo(value)}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-semibold',
                mode === value ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {t(label)}
            </button>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {mode !== 'preview' && !readOnly ? (
            <Select
              aria-label={t('templates.editor.insertTag')}
              className="h-10 w-auto min-w-44"
              value=""
              onChange={(event) => insertTag(event.target.value)}
            >
              <option value="">{t('templates.editor.insertTagPlaceholder')}</option>
              {tags.map((tag) => (
                <option key={tag.tag} value={tag.tag}>
                  {t(tag.label, tag.labelParams)}
                </option>
              ))}
            </Select>
          ) : null}
          {readOnly ? null : (
            <Button onClick={save} disabled={saving}>
              {saving ? t('templates.editor.saving') : t('templates.editor.save')}
            </Button>
          )}
        </div>
      </div>
      {error ? (
        <div className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800" role="alert">
          {error}
        </div>
      ) : null}

      {mode === 'visual' ? (
        <Card className="h-[70vh] min-h-[560px] overflow-hidden">
          <Suspense
            fallback={
              <div className="flex h-full items-center justify-center">
                <Spinner label={t('templates.editor.loadingBuilder')} />
              </div>
            }
          >
            <VisualBuilder
              key={builderKey}
              ref={builder}
              html={content.html}
              project={content.project}
              account={account}
            />
          </Suspense>
        </Card>
      ) : mode === 'code' ? (
        <Textarea
          ref={code}
          aria-label={t('templates.editor.html')}
          spellCheck={false}
          readOnly={readOnly}
          className="h-[70vh] min-h-[480px] font-mono text-xs leading-relaxed"
          value={content.html}
          onChange={(event) => setContent({ html: event.target.value, project: null })}
        />
      ) : (
        <PreviewPane
          content={content}
          contacts={contactRows}
          renderPreview={renderPreview}
          onTestSend={onTestSend}
          beforeServer={async () => {
            if (!readOnly && renderPreview) await onSave(content);
          }}
        />
      )}
    </div>
  );
}

function PreviewPane({
  content,
  contacts,
  renderPreview,
  onTestSend,
  beforeServer,
}: {
  content: EditorContent;
  contacts: Array<SampleContact & { id: string }>;
  renderPreview?: TemplateEditorProps['renderPreview'];
  onTestSend?: TemplateEditorProps['onTestSend'];
  beforeServer: () => Promise<void>;
}) {
  const { t, locale } = useI18n();
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
  const [contactId, setContactId] = useState<string>('');
  const [rendered, setRendered] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [emails, setEmails] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const chosen = contacts.find((c) => c.id === contactId);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-render on the content and the chosen contact.
  useEffect(() => {
    if (!renderPreview) return;
    let live = true;
    setRendered(null);
    setError(null);
    beforeServer()
      .then(() => renderPreview(content, contactId || null))
      .then((result) => live && setRendered(result))
      .catch((failure: unknown) => live && setError(errorText(failure)));
    return () => {
      live = false;
    };
  }, [content, contactId]);
  const html = renderPreview ? rendered : fillSample(content.html, chosen);

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div>
        <div className="mb-3 flex flex-wrap items-center gap-2">
          <fieldset
            className="inline-flex rounded-lg border border-slate-200 bg-white p-1"
            aria-label={t('templates.preview.device')}
          >
            {(
              [
                ['desktop', 'templates.preview.desktop'],
                ['mobile', 'templates.preview.mobile'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                aria-pressed={device === value}
                onClick={() => setDevice(value)}
                className={cn(
                  'rounded-md px-3 py-1.5 text-sm font-semibold',
                  device === value ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100',
                )}
              >
                {t(label)}
              </button>
            ))}
          </fieldset>
          <Select
            aria-label={t('templates.preview.data')}
            className="h-10 w-full sm:w-72"
            value={contactId}
            onChange={(event) => setContactId(event.target.value)}
          >
            <option value="">{t('templates.preview.sample')}</option>
            {contacts.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name ? `${c.name} <${c.email}>` : c.email}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex justify-center rounded-2xl bg-slate-100 p-4">
          {error ? (
            <p className="py-10 text-sm text-red-700" role="alert">
              {error}
            </p>
          ) : html === null ? (
            <div className="py-16">
              <Spinner label={t('templates.preview.rendering')} />
            </div>
          ) : (
            <iframe
              title={t('templates.preview.frame')}
              sandbox=""
              srcDoc={html}
              data-testid="preview-frame"
              data-device={device}
              style={{ width: device === 'mobile' ? 375 : 600 }}
              className="h-[70vh] max-w-full rounded-lg border border-slate-200 bg-white shadow"
            />
          )}
        </div>
      </div>
      <Card className="h-fit p-4">
        <h3 className="font-semibold text-slate-900">{t('templates.test.title')}</h3>
        {onTestSend ? (
          <form
            className="mt-3 space-y-3"
            noValidate
            onSubmit={async (event) => {
              event.preventDefault();
              const list = emails
                .split(/[\s,;]+/)
                .map((e) => e.trim())
                .filter(Boolean);
              if (list.length === 0) return setSendError(t('templates.test.needEmail'));
              if (list.length > TEST_SEND_MAX_RECIPIENTS) {
                return setSendError(t('templates.test.tooMany', { max: TEST_SEND_MAX_RECIPIENTS }));
              }
              setSending(true);
              setSendError(null);
              try {
                await beforeServer();
                const sent = await onTestSend(content, list, contactId || null);
                toast({
                  title: t(`templates.test.sent.${pluralForm(locale, sent)}`, { count: formatNumber(sent) }),
                  variant: 'success',
                });
              } catch (failure) {
                setSendError(errorText(failure));
              } finally {
                setSending(false);
              }
            }}
          >
            <div>
              <Label htmlFor="test-emails">{t('templates.test.label', { max: TEST_SEND_MAX_RECIPIENTS })}</Label>
              <Input
                id="test-emails"
                className="mt-1.5"
                placeholder={t('templates.test.placeholder')}
                value={emails}
                onChange={(event) => setEmails(event.target.value)}
              />
              <p className="mt-1 text-xs text-slate-500">{t('templates.test.hint')}</p>
            </div>
            <FieldError>{sendError}</FieldError>
            <Button type="submit" variant="secondary" disabled={sending} className="w-full">
              {sending ? t('templates.test.sending') : t('templates.test.send')}
            </Button>
          </form>
        ) : (
          <p className="mt-2 text-sm text-slate-600">{t('templates.test.inCampaign')}</p>
        )}
      </Card>
    </div>
  );
}
