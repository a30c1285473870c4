import 'grapesjs/dist/css/grapes.min.css';
// The icons of GrapesJS's panels, bundled into this (editor-only) chunk: GrapesJS would fetch them from a CDN,
// which our CSP blocks (cssIcons: '' below).
import 'font-awesome/css/font-awesome.min.css';
import grapesjs, { type Editor } from 'grapesjs';
import presetNewsletter from 'grapesjs-preset-newsletter';
import { type Ref, useEffect, useImperativeHandle, useRef } from 'react';
import { errorText } from '@/features/lists/components/kit';
import { getLocale, translate } from '@/lib/i18n';
import { toast } from '@/stores/app-store';
import { getImages } from '../api/get-images';
import { uploadImage } from '../api/upload-image';
import { GRAPESJS_PT_BR, NEWSLETTER_PRESET_OPTIONS } from './builder-pt-br';

/** What the editor shell asks of the builder (this module, with GrapesJS, loads only on editor routes). */
export interface VisualBuilderHandle {
  /** The e-mail HTML: body with CSS inlined (newsletter preset) plus the CSS kept for media queries. */
  getHtml(): string;
  getProject(): Record<string, unknown>;
  /** Inserts text (a merge tag) into the selected component, else at the end of the body. */
  insertText(text: string): void;
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

/** GrapesJS with the newsletter preset, loaded with the stored project (or the HTML when there is none). */
export default function VisualBuilder({
  html,
  project,
  ref,
}: {
  html: string;
  project: Record<string, unknown> | null;
  ref?: Ref<VisualBuilderHandle>;
}) {
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the builder is created once per mount.
  useEffect(() => {
    if (!container.current) return;
    const instance = grapesjs.init({
      container: container.current,
      height: '100%',
      width: 'auto',
      fromElement: false,
      storageManager: false,
      // The preset's labels and modal texts in pt-BR (its block labels are also in the i18n messages).
      plugins: [presetNewsletter],
      pluginsOpts: { [presetNewsletter as unknown as string]: getLocale() === 'en' ? {} : NEWSLETTER_PRESET_OPTIONS },
      cssIcons: '',
      // GrapesJS would post usage data to its own servers (blocked by our CSP, and not ours to send).
      telemetry: false,
      // GrapesJS's own panels follow the interface language (its English texts are built in).
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
          for (const file of Array.from(files ?? [])) {
            try {
              const image = await uploadImage(file);
              instance.AssetManager.add({ src: image.url, name: image.name ?? file.name });
            } catch (error) {
              toast({
                title: translate(getLocale(), 'templates.builder.uploadFailed'),
                description: errorText(error),
                variant: 'error',
              });
            }
          }
        },
      },
    });
    getImages()
      .then((images) => instance.AssetManager.add(images.map((i) => ({ src: i.url, name: i.name ?? '' }))))
      .catch(() => {
        // The library is optional: uploads still work.
      });
    if (project && Object.keys(project).length > 0) instance.loadProjectData(project);
    else instance.setComponents(html || '<table width="100%"><tr><td>Escreva aqui o seu e-mail</td></tr></table>');
    editor.current = instance;
    return () => {
      instance.destroy();
      editor.current = null;
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      getHtml() {
        const instance = editor.current;
        if (!instance) return html;
        const inlined = String(instance.runCommand('gjs-get-inlined-html') ?? instance.getHtml());
        const body = inlined.replace(/^<body[^>]*>/i, '').replace(/<\/body>\s*$/i, '');
        return wrapEmailHtml(body, instance.getCss() ?? '');
      },
      getProject() {
        return (editor.current?.getProjectData() ?? {}) as Record<string, unknown>;
      },
      insertText(text: string) {
        const instance = editor.current;
        if (!instance) return;
        const target = instance.getSelected() ?? instance.getWrapper();
        target?.append({ type: 'textnode', content: ` ${text}` });
      },
    }),
    [html],
  );

  return <div ref={container} className="h-full min-h-[560px]" data-testid="visual-builder" />;
}
