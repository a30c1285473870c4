import { type CampaignCreateInput, campaignCreateSchema, isEditable } from '@carteiro/shared';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatNumber, Textarea } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { BLANK_TEMPLATE_HTML } from '@/lib/blank-template';
import { cn } from '@/lib/cn';
import { errorText } from '@/lib/error-text';
import { useLists } from '@/lib/queries/lists';
import { useTemplates } from '@/lib/queries/templates';
import { revealInStrip } from '@/lib/reveal-in-strip';
import { toast, useUser } from '@/stores/app-store';
import { useCreateCampaign } from '../api/create-campaign';
import type { Campaign } from '../api/types';
import { useUpdateCampaign } from '../api/update-campaign';
import { type AbFormState, AbTestFields, abTestInput, initialAbState } from './ab-test-fields';
import { SegmentPicker } from './segment-picker';
import { SenderPicker } from './sender-picker';

const STEPS = ['Informações', 'Remetente', 'Público', 'Modelo', 'Rastreamento'] as const;

interface FormValues {
  name: string;
  subject: string;
  preheader: string;
  fromName: string;
  fromEmail: string;
  replyTo: string;
  includeListIds: string[];
  excludeListIds: string[];
  includeSegmentIds: string[];
  /** '' keep the campaign's HTML; 'blank' start from scratch; else a library template id. */
  templateChoice: string;
  trackOpens: boolean;
  trackClicks: boolean;
  ab: AbFormState;
}

function initialValues(campaign: Campaign | null, userName: string | undefined): FormValues {
  return {
    name: campaign?.name ?? '',
    subject: campaign?.subject ?? '',
    preheader: campaign?.preheader ?? '',
    fromName: campaign?.fromName ?? userName ?? '',
    fromEmail: campaign?.fromEmail ?? '',
    replyTo: campaign?.replyTo ?? '',
    includeListIds: campaign?.includeListIds ?? [],
    excludeListIds: campaign?.excludeListIds ?? [],
    includeSegmentIds: campaign?.includeSegmentIds ?? [],
    templateChoice: campaign?.template ? '' : 'blank',
    trackOpens: campaign?.trackOpens ?? true,
    trackClicks: campaign?.trackClicks ?? true,
    ab: initialAbState(campaign?.abTest),
  };
}

/**
 * The stepped campaign form (new and edit). Every step saves the draft: the first save creates it with a uuid
 * generated here (spec §3, §7) and moves the URL to `:id/edit`.
 */
export function CampaignForm({ campaign }: { campaign: Campaign | null }) {
  const user = useUser();
  const [values, setValues] = useState(() => initialValues(campaign, user?.name));
  // The step lives in the URL: the first save moves from /new to /:id/edit (another page) and keeps it.
  const [params, setParams] = useSearchParams();
  const step = Math.min(Math.max(Number(params.get('step') ?? 0) || 0, 0), STEPS.length - 1);
  const setStep = (next: number) => setParams({ step: String(next) }, { replace: true });
  // On a phone the steps scroll sideways: keep the current one in view (step 4 sat hidden past the edge).
  const stepStrip = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const strip = stepStrip.current;
    const current = strip?.querySelectorAll<HTMLElement>('li')[step];
    if (strip && current) revealInStrip(strip, current);
  }, [step]);
  const [uuid] = useState(() => campaign?.uuid ?? crypto.randomUUID());
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Campaign | null>(campaign);
  const create = useCreateCampaign();
  const update = useUpdateCampaign(saved?.id ?? '');
  const navigate = useNavigate();
  const lists = useLists();
  const templates = useTemplates();
  const pending = create.isPending || update.isPending;
  const locked = saved ? !isEditable(saved.status) : false;
  const set = (patch: Partial<FormValues>) => setValues((v) => ({ ...v, ...patch }));

  function body(): CampaignCreateInput | string {
    const template =
      values.templateChoice === 'blank'
        ? { template: BLANK_TEMPLATE_HTML, templateProject: null }
        : values.templateChoice
          ? { templateId: values.templateChoice }
          : {};
    const parsed = campaignCreateSchema.safeParse({
      uuid,
      name: values.name,
      subject: values.subject,
      preheader: values.preheader,
      fromName: values.fromName || null,
      fromEmail: values.fromEmail,
      replyTo: values.replyTo,
      includeListIds: values.includeListIds,
      excludeListIds: values.excludeListIds,
      includeSegmentIds: values.includeSegmentIds,
      trackOpens: values.trackOpens,
      trackClicks: values.trackClicks,
      abTest: abTestInput(values.ab),
      ...template,
    });
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Confira os campos.';
    return parsed.data;
  }

  async function save(next: number | 'done') {
    const input = body();
    if (typeof input === 'string') {
      setError(input);
      return;
    }
    setError(null);
    try {
      let result: Campaign;
      if (saved) {
        const { uuid: _uuid, ...patch } = input;
        result = await update.mutateAsync(patch);
      } else {
        result = await create.mutateAsync(input);
        toast({ title: 'Rascunho salvo', variant: 'success' });
        navigate(`/dashboard/campaigns/${result.id}/edit?step=${next === 'done' ? STEPS.length - 1 : next}`, {
          replace: true,
        });
        return;
      }
      setSaved(result);
      // The template choice is applied once; afterwards the campaign keeps its own copy.
      if (values.templateChoice) set({ templateChoice: '' });
      if (next === 'done') {
        toast({ title: 'Rascunho salvo', variant: 'success' });
        navigate(`/dashboard/campaigns/${result.id}/view`);
      } else {
        toast({ title: 'Rascunho salvo', variant: 'success' });
        setStep(next);
      }
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  const toggle = (key: 'includeListIds' | 'excludeListIds', id: string) => {
    const other = key === 'includeListIds' ? 'excludeListIds' : 'includeListIds';
    const has = values[key].includes(id);
    set({
      [key]: has ? values[key].filter((x) => x !== id) : [...values[key], id],
      [other]: values[other].filter((x) => x !== id),
    } as Partial<FormValues>);
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[14rem_minmax(0,1fr)]">
      <nav aria-label="Etapas" className="min-w-0">
        <ol ref={stepStrip} className="relative flex gap-2 overflow-x-auto lg:flex-col">
          {STEPS.map((label, index) => (
            <li key={label}>
              <button
                type="button"
                onClick={() => setStep(index)}
                aria-current={step === index ? 'step' : undefined}
                className={cn(
                  'flex w-full items-center gap-2 whitespace-nowrap rounded-lg px-3 py-2 text-left text-sm font-medium',
                  step === index ? 'bg-brand-100 text-brand-900' : 'text-slate-600 hover:bg-slate-100',
                )}
              >
                <span
                  className={cn(
                    'flex h-6 w-6 items-center justify-center rounded-full text-xs',
                    step === index ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-700',
                  )}
                >
                  {index + 1}
                </span>
                {label}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <Card className="min-w-0">
        <CardContent>
          {locked ? (
            <p className="mb-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
              O envio desta campanha já começou: ela não pode mais ser editada.
            </p>
          ) : null}
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void save(step === STEPS.length - 1 ? 'done' : step + 1);
            }}
          >
            <fieldset disabled={locked} className="space-y-5">
              <legend className="mb-2 text-lg font-bold text-slate-900">
                {step + 1}. {STEPS[step]}
              </legend>
              {step === 0 ? (
                <>
                  <Field id="c-name" label="Nome da campanha (só você vê)">
                    <Input id="c-name" value={values.name} onChange={(e) => set({ name: e.target.value })} />
                  </Field>
                  <Field
                    id="c-subject"
                    label={values.ab.enabled ? 'Assunto (variante A)' : 'Assunto'}
                    hint='Aceita campos, ex.: {{ contato.nome | default: "cliente" }}'
                  >
                    <Input id="c-subject" value={values.subject} onChange={(e) => set({ subject: e.target.value })} />
                  </Field>
                  <Field
                    id="c-preheader"
                    label="Pré-cabeçalho"
                    hint="O resumo que aparece ao lado do assunto na caixa de entrada."
                  >
                    <Textarea
                      id="c-preheader"
                      rows={2}
                      value={values.preheader}
                      onChange={(e) => set({ preheader: e.target.value })}
                    />
                  </Field>
                  <AbTestFields state={values.ab} onChange={(ab) => set({ ab })} />
                </>
              ) : step === 1 ? (
                <>
                  <Field id="c-from-name" label="Nome do remetente">
                    <Input
                      id="c-from-name"
                      value={values.fromName}
                      onChange={(e) => set({ fromName: e.target.value })}
                    />
                  </Field>
                  <Field id="c-from-email" label="E-mail do remetente">
                    <SenderPicker
                      id="c-from-email"
                      value={values.fromEmail}
                      onChange={(fromEmail) => set({ fromEmail })}
                    />
                  </Field>
                  <Field id="c-reply" label="Responder para (opcional)">
                    <Input
                      id="c-reply"
                      type="email"
                      value={values.replyTo}
                      onChange={(e) => set({ replyTo: e.target.value })}
                    />
                  </Field>
                </>
              ) : step === 2 ? (
                lists.isPending ? (
                  <p className="text-sm text-slate-500">Carregando listas…</p>
                ) : (lists.data ?? []).length === 0 ? (
                  <p className="text-sm text-slate-600">
                    Você ainda não tem listas.{' '}
                    <Link to="/dashboard/lists/new" className="font-semibold text-brand-700 hover:underline">
                      Crie uma lista
                    </Link>{' '}
                    e importe seus contatos.
                  </p>
                ) : (
                  <div className="overflow-x-auto">
                    <table className="w-full text-left text-sm">
                      <thead>
                        <tr className="text-xs uppercase tracking-wide text-slate-500">
                          <th className="py-2">Lista</th>
                          <th className="py-2 text-right">Inscritos</th>
                          <th className="py-2 text-center">Enviar</th>
                          <th className="py-2 text-center">Excluir</th>
                        </tr>
                      </thead>
                      <tbody>
                        {(lists.data ?? []).map((list) => (
                          <tr key={list.id} className="border-t border-slate-100">
                            <td className="py-2 font-medium text-slate-800">{list.name}</td>
                            <td className="py-2 text-right tabular-nums">{formatNumber(list.subscribedCount)}</td>
                            <td className="py-2 text-center">
                              <input
                                type="checkbox"
                                aria-label={`Enviar para ${list.name}`}
                                className="accent-brand-700"
                                checked={values.includeListIds.includes(list.id)}
                                onChange={() => toggle('includeListIds', list.id)}
                              />
                            </td>
                            <td className="py-2 text-center">
                              <input
                                type="checkbox"
                                aria-label={`Excluir quem está em ${list.name}`}
                                className="accent-red-600"
                                checked={values.excludeListIds.includes(list.id)}
                                onChange={() => toggle('excludeListIds', list.id)}
                              />
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                    <p className="mt-3 text-xs text-slate-500">
                      Quem está em mais de uma lista recebe uma só vez; descadastrados e endereços bloqueados ficam de
                      fora. O número exato aparece na revisão.
                    </p>
                  </div>
                )
              ) : step === 3 ? (
                <div className="space-y-3">
                  {saved?.template ? (
                    <Choice
                      checked={values.templateChoice === ''}
                      onChange={() => set({ templateChoice: '' })}
                      title="Manter o modelo atual da campanha"
                      text="Continue editando a cópia própria desta campanha."
                    />
                  ) : null}
                  <Choice
                    checked={values.templateChoice === 'blank'}
                    onChange={() => set({ templateChoice: 'blank' })}
                    title="Começar do zero"
                    text="Um e-mail em branco com o link de descadastro no rodapé."
                  />
                  {(templates.data ?? []).map((template) => (
                    <Choice
                      key={template.id}
                      checked={values.templateChoice === template.id}
                      onChange={() => set({ templateChoice: template.id })}
                      title={`Modelo: ${template.name}`}
                      text="Uma cópia do modelo vai para a campanha; o modelo da biblioteca não muda."
                    />
                  ))}
                  <p className="text-sm text-slate-600">
                    Depois de salvar, edite o conteúdo em{' '}
                    {saved ? (
                      <Link
                        to={`/dashboard/campaigns/${saved.id}/template`}
                        className="font-semibold text-brand-700 hover:underline"
                      >
                        Modelo da campanha
                      </Link>
                    ) : (
                      '"Modelo da campanha"'
                    )}
                    .{' '}
                    <Link to="/dashboard/templates" className="text-brand-700 hover:underline">
                      Ver biblioteca de modelos
                    </Link>
                  </p>
                </div>
              ) : (
                <div className="space-y-3">
                  <Check
                    checked={values.trackOpens}
                    onChange={(v) => set({ trackOpens: v })}
                    title="Rastrear aberturas"
                    text="Um pixel invisível conta quem abriu (aberturas automáticas são marcadas)."
                  />
                  <Check
                    checked={values.trackClicks}
                    onChange={(v) => set({ trackClicks: v })}
                    title="Rastrear cliques"
                    text="Os links passam pelo nosso endereço para contar os cliques."
                  />
                </div>
              )}
              {step === 2 ? (
                <SegmentPicker
                  selected={values.includeSegmentIds}
                  onChange={(includeSegmentIds) => set({ includeSegmentIds })}
                />
              ) : null}
              <FieldError>{error}</FieldError>
              <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-4">
                {step > 0 ? (
                  <Button variant="outline" onClick={() => setStep(step - 1)}>
                    Voltar
                  </Button>
                ) : null}
                <Button type="submit" disabled={pending}>
                  {pending ? 'Salvando…' : step === STEPS.length - 1 ? 'Salvar e revisar' : 'Salvar e continuar'}
                </Button>
              </div>
            </fieldset>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <div className="mt-1.5">{children}</div>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}

function Choice({
  checked,
  onChange,
  title,
  text,
}: {
  checked: boolean;
  onChange: () => void;
  title: string;
  text: string;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer gap-3 rounded-xl border p-4',
        checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200',
      )}
    >
      <input
        type="radio"
        name="template-choice"
        checked={checked}
        onChange={onChange}
        className="mt-1 accent-brand-700"
      />
      <span>
        <span className="block font-semibold text-slate-900">{title}</span>
        <span className="block text-sm text-slate-600">{text}</span>
      </span>
    </label>
  );
}

function Check({
  checked,
  onChange,
  title,
  text,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  title: string;
  text: string;
}) {
  return (
    <label className="flex cursor-pointer gap-3 rounded-xl border border-slate-200 p-4">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 accent-brand-700"
      />
      <span>
        <span className="block font-semibold text-slate-900">{title}</span>
        <span className="block text-sm text-slate-600">{text}</span>
      </span>
    </label>
  );
}
