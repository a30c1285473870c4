import 'grapesjs/dist/css/grapes.min.css';
import { errorText } from '@/lib/error-text';
import './visual-builder.css';
import {
  type FooterAccount,
  IDENTITY_FOOTER_MARKER,
  identityFooterDisplayLines,
  identityFooterTable,
} from '@carteiro/shared';
import grapesjs, { type Component, type Editor } from 'grapesjs';
import presetNewsletter from 'grapesjs-preset-newsletter';
import { type Ref, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import { getLocale, translate, useI18n } from '@/lib/i18n';
import { toast } from '@/stores/app-store';
import { getImages } from '../api/get-images';
import { uploadImage } from '../api/upload-image';
import { GRAPESJS_PT_BR, NEWSLETTER_PRESET_OPTIONS, RICH_TEXT_ACTIONS, TOOLBAR_TITLES } from './builder-pt-br';
import { EMAIL_BLOCKS, type EmailBlock, IDENTITY_FOOTER_BLOCK_ID } from './email-blocks';
import { CHIP_ATTRIBUTE, CHIP_CLASS, chipHtml, liquidToChips, restoreLiquid } from './liquid-chips';
import { sanitizeBuilderHtml } from './sanitize-builder-html';

/** What the editor shell asks of the builder (this module, with GrapesJS, loads only on editor routes). */
export interface VisualBuilderHandle {
  /** Merges the text being edited into the e-mail (GrapesJS does it only when editing ends, asynchronously). */
  flush(): Promise<void>;
  /** The e-mail HTML: body with CSS inlined (newsletter preset) plus the CSS kept for media queries. */
  getHtml(): string;
  getProject(): Record<string, unknown>;
  /**
   * Inserts a merge tag as a chip at the caret of the text being edited (the saved HTML holds the Liquid exactly
   * there); false when no text is being edited, so the shell can say where to click.
   */
  insertText(text: string): boolean;
}

export function wrapEmailHtml(body: string, css: string): string {
  return [
    '<!doctype html>',
    '<html lang="pt-BR">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    css ? `<style>${css}</style>` : '',
    '</head>',
    `<body>${body}</body>`,
    '</html>',
  ].join('\n');
}

const FOOTER_TYPE = 'carteiro-rodape';
const CHIP_TYPE = 'carteiro-campo';
const EMPTY_EMAIL = `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td style="padding:16px 24px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:24px;color:#1f2937;">Escreva aqui o seu e-mail.</td></tr></table>${identityFooterTable()}`;

/** Canvas-only styles (never exported): the chips and the locked footer. */
const CANVAS_CSS = `
  .${CHIP_CLASS} { display:inline-block; padding:0 6px; margin:0 1px; border-radius:999px; background:#ede9fe;
    color:#5b21b6; font-weight:600; font-size:0.9em; line-height:1.5; white-space:nowrap; cursor:default; }
  [data-carteiro-bloco="rodape"] { width:100%; cursor:not-allowed; }
  [data-carteiro-bloco="rodape"] td { padding:24px 32px; border-top:1px solid #e5e7eb;
    font-family:Arial,Helvetica,sans-serif; font-size:12px; line-height:18px; color:#6b7280; text-align:center; }
  [data-carteiro-bloco="rodape"] a { color:#6b7280; }
  [data-carteiro-bloco="rodape"] em { color:#b45309; }
`;

type Device = 'Desktop' | 'Tablet' | 'Mobile portrait';

/** Registers Carteiro's component types: merge-tag chips and the locked identity footer. */
function addCarteiroTypes(editor: Editor, account: () => FooterAccount | null) {
  editor.Components.addType(CHIP_TYPE, {
    isComponent: (el: HTMLElement) => el?.nodeType === 1 && el.hasAttribute?.(CHIP_ATTRIBUTE),
    model: {
      defaults: {
        tagName: 'span',
        name: translate(getLocale(), 'templates.builder.chipLayer'),
        editable: false,
        droppable: false,
        draggable: false,
        copyable: false,
        stylable: false,
        layerable: false,
        highlightable: false,
        attributes: { contenteditable: 'false' },
      },
      /** A chip saves as the Liquid it stands for. */
      toHTML(this: Component) {
        return String(this.getAttributes()[CHIP_ATTRIBUTE] ?? '');
      },
    },
  });
  editor.Components.addType(FOOTER_TYPE, {
    isComponent: (el: HTMLElement) => el?.nodeType === 1 && el.getAttribute?.('data-carteiro-bloco') === 'rodape',
    model: {
      defaults: {
        tagName: 'table',
        name: translate(getLocale(), 'templates.builder.footerLayer'),
        removable: false,
        draggable: false,
        copyable: false,
        droppable: false,
        editable: false,
        stylable: false,
      },
      init(this: Component) {
        // Built as components, not as an HTML string: a lone <tbody>/<tr>/<td> would be dropped by the HTML parser.
        // The cell's look comes from CANVAS_CSS (what is saved is `toHTML` below).
        this.components([
          {
            type: 'tbody',
            components: [
              {
                type: 'row',
                components: [{ type: 'cell', components: identityFooterDisplayLines(account() ?? emptyAccount()) }],
              },
            ],
          },
        ]);
        // The rows inside show data, not content: nothing in them is selected, edited or moved on its own.
        const lock = (component: Component) => {
          component.set({ selectable: false, hoverable: false, editable: false, draggable: false, removable: false });
          component.components().forEach(lock);
        };
        this.components().forEach(lock);
      },
      /** Always the one footer (Liquid) the server fills per message, whatever the canvas shows. */
      toHTML() {
        return identityFooterTable();
      },
    },
  });
}

/** Before the account loads, the footer shows a stand-in company name. */
function emptyAccount(): FooterAccount {
  return { name: translate(getLocale(), 'templates.builder.yourCompany'), legalName: null, taxId: null, address: null };
}

function isFooter(component: Component | null | undefined): boolean {
  for (let c = component; c; c = c.parent()) if (c.get('type') === FOOTER_TYPE) return true;
  return false;
}

/** The footer component, when the e-mail has one. */
function findFooter(editor: Editor): Component | undefined {
  return editor.getWrapper()?.find(`[${IDENTITY_FOOTER_MARKER}]`)[0];
}

/**
 * Where a new block goes: after the selected block (inside it when it is a table cell), else just above the
 * footer, else at the end of the e-mail.
 */
function insertionPoint(editor: Editor): { parent: Component; at: number } | null {
  let selected = editor.getSelected();
  while (selected && (selected.get('type') === CHIP_TYPE || selected.parent()?.get('type') === 'text')) {
    selected = selected.parent();
  }
  const footer = findFooter(editor);
  if (selected && !isFooter(selected) && selected !== editor.getWrapper()) {
    if (selected.get('type') === 'cell') return { parent: selected, at: selected.components().length };
    let anchor: Component | undefined = selected;
    // A row or a table body cannot hold a block: go up to its table.
    while (anchor && ['row', 'tbody', 'thead', 'tfoot'].includes(String(anchor.get('type')))) anchor = anchor.parent();
    const parent = anchor?.parent();
    if (anchor && parent) return { parent, at: anchor.index() + 1 };
  }
  const footerParent = footer?.parent();
  if (footer && footerParent) return { parent: footerParent, at: footer.index() };
  const wrapper = editor.getWrapper();
  return wrapper ? { parent: wrapper, at: wrapper.components().length } : null;
}

/** The first text component at or under `component` (the one "Editar texto" opens). */
function firstText(component: Component | null | undefined): Component | undefined {
  if (!component) return undefined;
  if (component.get('type') === 'text' || component.get('type') === 'link') return component;
  return component.find('*').find((c) => c.get('type') === 'text' || c.get('type') === 'link');
}

/** Merges what the owner is typing into the model (GrapesJS syncs a text only when its editing ends). */
async function syncEditing(instance: Editor): Promise<void> {
  const view = instance.getEditing()?.getView() as { syncContent?: () => Promise<void> } | undefined;
  await view?.syncContent?.();
}

/** GrapesJS with the newsletter preset (for its CSS inliner), driven by Carteiro's own accessible panels. */
export default function VisualBuilder({
  html,
  project,
  account,
  ref,
}: {
  html: string;
  project: Record<string, unknown> | null;
  /** The sending account: the footer block and the `conta.*` chips show its real data. */
  account: FooterAccount | null;
  ref?: Ref<VisualBuilderHandle>;
}) {
  const { t } = useI18n();
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);
  const accountRef = useRef(account);
  accountRef.current = account;
  /** The caret of the text being edited, kept while the owner is in the "Inserir campo" menu. */
  const caret = useRef<Range | null>(null);
  const [device, setDevice] = useState<Device>('Desktop');
  const [outlines, setOutlines] = useState(true);
  const [panel, setPanel] = useState<'blocks' | 'selected'>('blocks');
  const [selected, setSelected] = useState<Component | null>(null);
  const [, setRevision] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const [ready, setReady] = useState(false);
  /** "Editar texto" has opened a text and put the caret at its end: what is typed now goes on from there. */
  const [textCaretReady, setTextCaretReady] = useState(false);
  const panelId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the builder is created once per mount.
  useEffect(() => {
    if (!container.current) return;
    const instance = grapesjs.init({
      container: container.current,
      height: '100%',
      width: 'auto',
      fromElement: false,
      storageManager: false,
      // Carteiro draws the panels (focusable buttons with pt-BR names); GrapesJS keeps only the canvas.
      panels: { defaults: [] },
      blockManager: { custom: true },
      plugins: [presetNewsletter],
      pluginsOpts: {
        [presetNewsletter as unknown as string]: {
          ...NEWSLETTER_PRESET_OPTIONS,
          // The preset's blocks are English with Lorem ipsum and third-party images; ours are in email-blocks.ts.
          blocks: [],
          showBlocksOnLoad: false,
          showStylesOnChange: false,
          useCustomTheme: false,
          updateStyleManager: false,
        },
      },
      canvasCss: CANVAS_CSS,
      // A paragraph holding chips (or bold, italic, spans) is still one editable text.
      parser: {
        textTypes: ['text', 'textnode', 'comment', CHIP_TYPE],
        textTags: ['br', 'b', 'i', 'u', 'a', 'ul', 'ol', 'strong', 'em', 's', 'span', 'sup', 'sub'],
        // Pasted or imported HTML loses what runs code before the parser sees it (its own check is narrower).
        optionsHtml: { preParser: (input: string) => sanitizeBuilderHtml(input) },
      },
      cssIcons: '',
      // GrapesJS would post usage data to its own servers (blocked by our CSP, and not ours to send).
      telemetry: false,
      // GrapesJS's type says string[], but it merges objects over its built-in actions by name.
      richTextEditor: { actions: RICH_TEXT_ACTIONS as unknown as string[] },
      deviceManager: {
        devices: [
          { id: 'Desktop', name: t('templates.builder.deviceDesktop'), width: '' },
          { id: 'Tablet', name: t('templates.builder.deviceTablet'), width: '768px', widthMedia: '992px' },
          { id: 'Mobile portrait', name: t('templates.builder.deviceMobile'), width: '375px', widthMedia: '480px' },
        ],
      },
      i18n: {
        locale: getLocale() === 'en' ? 'en' : 'pt',
        localeFallback: 'en',
        detectLocale: false,
        messages: { pt: GRAPESJS_PT_BR },
      },
      assetManager: {
        // Images go to our file storage (public URLs that work inside e-mails), never as base64.
        uploadFile: async (event: DragEvent | Event) => {
          const files = (event as DragEvent).dataTransfer?.files ?? (event.target as HTMLInputElement | null)?.files;
          for (const file of Array.from(files ?? [])) await addUploadedImage(instance, file);
        },
      },
    });
    // The preset installs its own (English, unfocusable) panels when it loads: Carteiro's replace them.
    instance.Panels.getPanels().reset([]);
    addCarteiroTypes(instance, () => accountRef.current);
    instance.on('component:selected', (component: Component) => {
      // The canvas toolbar (mouse users) gets pt-BR names too.
      const toolbar = (component.get('toolbar') ?? []) as Array<{ command?: unknown; attributes?: object }>;
      component.set({
        toolbar: toolbar.map((item) => ({
          ...item,
          attributes: {
            ...item.attributes,
            title: typeof item.command === 'string' ? (TOOLBAR_TITLES[item.command] ?? '') : TOOLBAR_TITLES.parent,
          },
        })),
      } as never);
      setSelected(component);
    });
    instance.on('component:deselected', () => setSelected(instance.getSelected() ?? null));
    instance.on('component:update component:add component:remove', () => setRevision((r) => r + 1));
    instance.on('rte:disable', () => setTextCaretReady(false));
    instance.on('rte:enable', () => {
      const doc = instance.Canvas.getDocument();
      if (!doc) return;
      const remember = () => {
        const selection = doc.getSelection();
        if (selection?.rangeCount) caret.current = selection.getRangeAt(0).cloneRange();
      };
      doc.addEventListener('selectionchange', remember);
      instance.once('rte:disable', () => doc.removeEventListener('selectionchange', remember));
    });
    instance.onReady(() => {
      const frame = instance.Canvas.getFrameEl();
      frame?.setAttribute('title', translate(getLocale(), 'templates.builder.canvas'));
      setReady(true);
    });
    getImages()
      .then((images) => instance.AssetManager.add(images.map((i) => ({ src: i.url, name: i.name ?? '' }))))
      .catch(() => {
        // The library is optional: uploads still work.
      });
    if (project && Object.keys(project).length > 0) instance.loadProjectData(project);
    else instance.setComponents(liquidToChips(html || EMPTY_EMAIL, accountRef.current));
    editor.current = instance;
    return () => {
      instance.destroy();
      editor.current = null;
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      async flush() {
        if (editor.current) await syncEditing(editor.current);
      },
      getHtml() {
        const instance = editor.current;
        if (!instance) return html;
        const inlined = String(instance.runCommand('gjs-get-inlined-html') ?? instance.getHtml());
        const body = inlined.replace(/^<body[^>]*>/i, '').replace(/<\/body>\s*$/i, '');
        return sanitizeBuilderHtml(restoreLiquid(wrapEmailHtml(body, instance.getCss() ?? '')));
      },
      getProject() {
        return (editor.current?.getProjectData() ?? {}) as Record<string, unknown>;
      },
      insertText(text: string) {
        const instance = editor.current;
        const editing = instance?.getEditing();
        const element = editing?.getEl();
        if (!instance || !editing || !element) return false;
        const doc = element.ownerDocument;
        const selection = doc.getSelection();
        // The frame keeps its own selection while the menu (in the page) has the focus; the copy kept on
        // selectionchange covers a browser that drops it.
        const live = selection?.rangeCount ? selection.getRangeAt(0) : null;
        const range =
          live && element.contains(live.startContainer)
            ? live
            : caret.current && element.contains(caret.current.startContainer)
              ? caret.current
              : (() => {
                  const end = doc.createRange();
                  end.selectNodeContents(element);
                  end.collapse(false);
                  return end;
                })();
        range.deleteContents();
        const holder = doc.createElement('span');
        holder.innerHTML = chipHtml(text, accountRef.current);
        const chip = holder.firstChild as Node;
        range.insertNode(chip);
        // The caret goes right after the chip, so the owner keeps typing where they were.
        const after = doc.createRange();
        after.setStartAfter(chip);
        after.collapse(true);
        selection?.removeAllRanges();
        selection?.addRange(after);
        caret.current = after.cloneRange();
        (element as HTMLElement).focus();
        return true;
      },
    }),
    [html],
  );

  async function addUploadedImage(instance: Editor, file: File, target?: Component) {
    try {
      const image = await uploadImage(file);
      instance.AssetManager.add({ src: image.url, name: image.name ?? file.name });
      target?.set('src', image.url);
    } catch (error) {
      toast({
        title: translate(getLocale(), 'templates.builder.uploadFailed'),
        description: errorText(error),
        variant: 'error',
      });
    }
  }

  function insertBlock(block: EmailBlock) {
    const instance = editor.current;
    if (!instance) return;
    const existing = findFooter(instance);
    if (block.id === IDENTITY_FOOTER_BLOCK_ID && existing) {
      instance.select(existing);
      setAnnouncement(t('templates.builder.footerExists'));
      return;
    }
    const point = insertionPoint(instance);
    if (!point) return;
    const content = liquidToChips(block.content(window.location.origin), accountRef.current);
    const body = content.match(/<body[^>]*>([\s\S]*)<\/body>/i)?.[1] ?? content;
    const first = point.parent.append(body, { at: point.at })[0];
    if (first) {
      instance.select(first);
      instance.Canvas.scrollTo(first, { behavior: 'smooth', block: 'center' });
    }
    setAnnouncement(t('templates.builder.inserted', { name: block.label }));
  }

  function startDrag(block: EmailBlock, event: React.DragEvent) {
    const instance = editor.current;
    const registered = instance?.Blocks.get(block.id) ?? instance?.Blocks.add(block.id, { label: block.label });
    if (!instance || !registered) return;
    registered.set('content', liquidToChips(block.content(window.location.origin), accountRef.current));
    // Some browsers start a drag only when it carries data; GrapesJS reads the block, not this text.
    event.dataTransfer.setData('text/plain', block.label);
    event.dataTransfer.effectAllowed = 'copy';
    instance.Blocks.startDrag(registered, event.nativeEvent);
  }

  function editText() {
    const instance = editor.current;
    const text = firstText(instance?.getSelected());
    if (!instance || !text) return;
    // Put the caret at the end of the text, in the canvas, so typing goes on from there — once the rich-text
    // editor is on: GrapesJS turns it on after the focus, and sets its own caret when it does.
    const placeCaret = () => {
      const element = text.getEl();
      if (!element) return;
      const doc = element.ownerDocument;
      const range = doc.createRange();
      range.selectNodeContents(element);
      range.collapse(false);
      doc.getSelection()?.removeAllRanges();
      doc.getSelection()?.addRange(range);
      element.focus();
      setTextCaretReady(true);
    };
    setTextCaretReady(false);
    instance.select(text);
    if (instance.getEditing() === text) {
      setTimeout(placeCaret, 0);
      return;
    }
    instance.once('rte:enable', () => setTimeout(placeCaret, 0));
    text.trigger('focus');
  }

  function run(action: 'parent' | 'up' | 'down' | 'duplicate' | 'delete') {
    const instance = editor.current;
    const component = instance?.getSelected();
    const parent = component?.parent();
    if (!instance || !component || !parent) return;
    if (action === 'parent') {
      instance.select(parent);
    } else if (action === 'up' || action === 'down') {
      const index = component.index();
      const to = action === 'up' ? index - 1 : index + 1;
      if (to < 0 || to >= parent.components().length) return;
      const footer = parent.components().at(to);
      if (isFooter(footer)) return;
      component.move(parent, { at: action === 'up' ? to : to + 1 });
      instance.select(component);
    } else if (action === 'duplicate') {
      if (!component.get('copyable')) return;
      const copy = parent.components().add(component.clone(), { at: component.index() + 1 });
      instance.select(Array.isArray(copy) ? copy[0] : copy);
    } else if (component.get('removable')) {
      instance.select(parent === instance.getWrapper() ? undefined : parent);
      component.remove();
    }
    setRevision((r) => r + 1);
  }

  function chooseDevice(next: Device) {
    editor.current?.setDevice(next);
    setDevice(next);
  }

  const component = selected;
  const locked = isFooter(component);
  const tools = (
    <div
      role="toolbar"
      aria-label={t('templates.builder.toolbar')}
      className="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-white px-2 py-1.5"
    >
      {(
        [
          [
            'Desktop',
            'templates.builder.desktop',
            'M21 16H3V4h18m0-2H3c-1.1 0-2 .9-2 2v12a2 2 0 0 0 2 2h7v2H8v2h8v-2h-2v-2h7a2 2 0 0 0 2-2V4c0-1.1-.9-2-2-2z',
          ],
          [
            'Tablet',
            'templates.builder.tablet',
            'M19 18H5V6h14m2-2H3c-1.1 0-2 .9-2 2v12a2 2 0 0 0 2 2h18a2 2 0 0 0 2-2V6c0-1.1-.9-2-2-2z',
          ],
          [
            'Mobile portrait',
            'templates.builder.mobile',
            'M17 19H7V5h10m0-4H7c-1.1 0-2 .9-2 2v18a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V3c0-1.1-.9-2-2-2z',
          ],
        ] as const
      ).map(([value, label, icon]) => (
        <ToolButton
          key={value}
          label={t(label)}
          icon={icon}
          pressed={device === value}
          onClick={() => chooseDevice(value)}
        />
      ))}
      <span className="mx-1 h-6 w-px bg-slate-200" aria-hidden />
      <ToolButton
        label={t('templates.builder.undo')}
        icon="M20 13.5a6.5 6.5 0 0 1-6.5 6.5H6v-2h7.5a4.5 4.5 0 0 0 0-9H7.83l3.08 3.09L9.5 13.5 4 8l5.5-5.5 1.42 1.41L7.83 7h5.67a6.5 6.5 0 0 1 6.5 6.5z"
        onClick={() => editor.current?.UndoManager.undo()}
      />
      <ToolButton
        label={t('templates.builder.redo')}
        icon="M10.5 18H18v2h-7.5a6.5 6.5 0 0 1 0-13h5.67l-3.09-3.09L14.5 2.5 20 8l-5.5 5.5-1.41-1.41L16.17 9H10.5a4.5 4.5 0 0 0 0 9z"
        onClick={() => editor.current?.UndoManager.redo()}
      />
      <ToolButton
        label={t('templates.builder.outlines')}
        icon="M15 5h2V3h-2m0 18h2v-2h-2M11 5h2V3h-2m8 2h2V3h-2m0 6h2V7h-2m0 14h2v-2h-2m0-6h2v-2h-2m0 6h2v-2h-2M3 5h2V3H3m0 6h2V7H3m0 6h2v-2H3m0 6h2v-2H3m0 6h2v-2H3m8 2h2v-2h-2m-4 2h2v-2H7M7 5h2V3H7v2z"
        pressed={outlines}
        onClick={() => {
          const instance = editor.current;
          if (!instance) return;
          if (outlines) instance.stopCommand('core:component-outline');
          else instance.runCommand('core:component-outline');
          setOutlines(!outlines);
        }}
      />
    </div>
  );

  return (
    <div
      className="carteiro-builder flex h-full flex-col"
      data-testid="visual-builder"
      data-ready={ready || undefined}
      data-text-caret-ready={textCaretReady || undefined}
      aria-busy={!ready}
    >
      {tools}
      <div className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[minmax(0,1fr)_17rem]">
        <div ref={container} className="min-h-[420px]" />
        <aside
          aria-label={t('templates.builder.panel')}
          className="flex min-h-0 flex-col border-t border-slate-200 bg-slate-50 md:border-l md:border-t-0"
        >
          <div
            role="tablist"
            aria-label={t('templates.builder.panel')}
            className="flex gap-1 border-b border-slate-200 p-1.5"
          >
            {(
              [
                ['blocks', 'templates.builder.blocks'],
                ['selected', 'templates.builder.selected'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                role="tab"
                id={`${panelId}-${value}`}
                aria-selected={panel === value}
                aria-controls={`${panelId}-${value}-panel`}
                onClick={() => setPanel(value)}
                className={cn(
                  'flex-1 rounded-md px-2 py-1.5 text-sm font-semibold',
                  panel === value ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-200',
                )}
              >
                {t(label)}
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id={`${panelId}-${panel}-panel`}
            aria-labelledby={`${panelId}-${panel}`}
            className="min-h-0 flex-1 overflow-y-auto p-2"
          >
            {panel === 'blocks' ? (
              <>
                <p className="mb-2 px-1 text-xs text-slate-600">{t('templates.builder.blocksHint')}</p>
                <ul className="grid grid-cols-2 gap-1.5">
                  {EMAIL_BLOCKS.map((block) => (
                    <li key={block.id}>
                      <button
                        type="button"
                        draggable
                        data-block={block.id}
                        title={block.hint}
                        aria-description={block.hint}
                        onClick={() => insertBlock(block)}
                        onDragStart={(event) => startDrag(block, event)}
                        onDragEnd={() => editor.current?.Blocks.endDrag(false)}
                        className="flex h-full w-full flex-col items-center gap-1 rounded-lg border border-slate-200 bg-white p-2 text-center text-xs font-medium text-slate-800 hover:border-brand-400 hover:bg-brand-50"
                      >
                        <svg viewBox="0 0 24 24" className="h-6 w-6 text-brand-700" aria-hidden>
                          <path fill="currentColor" d={block.icon} />
                        </svg>
                        {block.label}
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <SelectedPanel
                component={component}
                locked={locked}
                onEditText={editText}
                onAction={run}
                onUpload={(file) => {
                  const instance = editor.current;
                  if (instance && component) void addUploadedImage(instance, file, component);
                }}
                onChange={() => setRevision((r) => r + 1)}
              />
            )}
          </div>
        </aside>
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}

function ToolButton({
  label,
  icon,
  pressed,
  onClick,
}: {
  label: string;
  icon: string;
  pressed?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        'inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100',
        pressed && 'bg-brand-100 text-brand-800',
      )}
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden>
        <path fill="currentColor" d={icon} />
      </svg>
    </button>
  );
}

/** The selected block: its name, what can be done to it, and the few properties an e-mail needs. */
function SelectedPanel({
  component,
  locked,
  onEditText,
  onAction,
  onUpload,
  onChange,
}: {
  component: Component | null;
  locked: boolean;
  onEditText: () => void;
  onAction: (action: 'parent' | 'up' | 'down' | 'duplicate' | 'delete') => void;
  onUpload: (file: File) => void;
  onChange: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  if (!component) return <p className="px-1 text-sm text-slate-600">{t('templates.builder.nothingSelected')}</p>;
  if (locked) return <p className="px-1 text-sm text-slate-700">{t('templates.builder.footerLocked')}</p>;
  const type = String(component.get('type'));
  const link = type === 'link' ? component : component.find('a')[0];
  const isImage = type === 'image';
  const style = component.getStyle() as Record<string, string>;
  const setStyle = (property: string, value: string) => {
    component.addStyle({ [property]: value });
    onChange();
  };
  const actions: Array<[Parameters<typeof onAction>[0], string]> = [
    ['parent', 'templates.builder.selectParent'],
    ['up', 'templates.builder.moveUp'],
    ['down', 'templates.builder.moveDown'],
    ['duplicate', 'templates.builder.duplicate'],
    ['delete', 'templates.builder.delete'],
  ];
  return (
    <div className="space-y-3 px-1 text-sm">
      <p className="font-semibold text-slate-900">{component.getName()}</p>
      {firstText(component) ? (
        <button
          type="button"
          onClick={onEditText}
          className="w-full rounded-md bg-brand-700 px-3 py-2 font-semibold text-white hover:bg-brand-800"
        >
          {t('templates.builder.editText')}
        </button>
      ) : null}
      <div className="grid grid-cols-2 gap-1.5">
        {actions.map(([action, label]) => (
          <button
            key={action}
            type="button"
            onClick={() => onAction(action)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-xs font-medium text-slate-800 hover:bg-slate-100"
          >
            {t(label as 'templates.builder.moveUp')}
          </button>
        ))}
      </div>
      {link ? (
        <label className="block" htmlFor={`${id}-href`}>
          <span className="font-medium text-slate-800">{t('templates.builder.linkAddress')}</span>
          <input
            id={`${id}-href`}
            type="url"
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5"
            defaultValue={String(link.getAttributes().href ?? '')}
            onChange={(event) => link.addAttributes({ href: event.target.value })}
          />
        </label>
      ) : null}
      {isImage ? (
        <>
          <label className="block" htmlFor={`${id}-alt`}>
            <span className="font-medium text-slate-800">{t('templates.builder.imageAlt')}</span>
            <input
              id={`${id}-alt`}
              className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5"
              defaultValue={String(component.getAttributes().alt ?? '')}
              onChange={(event) => component.addAttributes({ alt: event.target.value })}
            />
          </label>
          <label className="block" htmlFor={`${id}-file`}>
            <span className="font-medium text-slate-800">{t('templates.builder.imageUpload')}</span>
            <input
              id={`${id}-file`}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              className="mt-1 w-full text-xs"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) onUpload(file);
              }}
            />
          </label>
        </>
      ) : null}
      <fieldset className="space-y-2">
        <legend className="font-medium text-slate-800">{t('templates.builder.style')}</legend>
        <label className="flex items-center justify-between gap-2" htmlFor={`${id}-color`}>
          <span>{t('templates.builder.textColor')}</span>
          <input
            id={`${id}-color`}
            type="color"
            value={toHex(style.color) ?? '#1f2937'}
            onChange={(event) => setStyle('color', event.target.value)}
          />
        </label>
        <label className="flex items-center justify-between gap-2" htmlFor={`${id}-bg`}>
          <span>{t('templates.builder.background')}</span>
          <input
            id={`${id}-bg`}
            type="color"
            value={toHex(style['background-color'] ?? style.background) ?? '#ffffff'}
            onChange={(event) => setStyle('background-color', event.target.value)}
          />
        </label>
        <label className="block" htmlFor={`${id}-align`}>
          <span>{t('templates.builder.align')}</span>
          <select
            id={`${id}-align`}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5"
            value={style['text-align'] ?? ''}
            onChange={(event) => setStyle('text-align', event.target.value)}
          >
            <option value="">{t('templates.builder.alignDefault')}</option>
            <option value="left">{t('templates.builder.alignLeft')}</option>
            <option value="center">{t('templates.builder.alignCenter')}</option>
            <option value="right">{t('templates.builder.alignRight')}</option>
          </select>
        </label>
        <label className="block" htmlFor={`${id}-size`}>
          <span>{t('templates.builder.fontSize')}</span>
          <select
            id={`${id}-size`}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5"
            value={style['font-size'] ?? ''}
            onChange={(event) => setStyle('font-size', event.target.value)}
          >
            <option value="">{t('templates.builder.alignDefault')}</option>
            {['12px', '14px', '16px', '18px', '22px', '28px', '36px'].map((size) => (
              <option key={size} value={size}>
                {size.replace('px', ' px')}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
    </div>
  );
}

/** `#rrggbb` for a colour input, from the `#rgb`/`#rrggbb` a style holds; undefined for anything else. */
function toHex(value: string | undefined): string | undefined {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join('')}`;
  return undefined;
}
