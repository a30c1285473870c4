import { displayFieldValue, fieldHeader } from '@carteiro/shared';
import { useEffect, useState } from 'react';
import { Drawer, downloadUrl, ErrorPanel, formatDateTime, LoadingPanel, Select } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { type MessageKey, useI18n } from '@/lib/i18n';
import {
  CONTACT_STATUS_LABELS,
  type ContactDetail,
  type ContactStatus,
  LEGAL_BASIS_LABELS,
} from '@/lib/queries/contacts';
import { useLists } from '@/lib/queries/lists';
import { confirmAction, toast } from '@/stores/app-store';
import { useDeleteContact } from '../api/delete-contact';
import { useEraseContact } from '../api/erase-contact';
import { exportContactDataUrl } from '../api/export-contact-data';
import { useContact } from '../api/get-contact';
import { type ContactActivity, useContactActivity } from '../api/get-contact-activity';
import { useUpdateContact } from '../api/update-contact';
import { StatusBadge } from './contacts-browser';
import { CustomFieldsEditor } from './custom-fields-editor';

/** Contact detail: fields, lists, consent evidence, edit, LGPD export (JSON) and erase, delete. */
export function ContactDrawer({ contactId, onClose }: { contactId: string | null; onClose: () => void }) {
  const { t } = useI18n();
  const contact = useContact(contactId);
  return (
    <Drawer
      open={Boolean(contactId)}
      title={contact.data?.email ?? t('contacts.drawer.fallbackTitle')}
      onClose={onClose}
    >
      {contact.isPending ? (
        <LoadingPanel />
      ) : contact.isError ? (
        <ErrorPanel error={contact.error} onRetry={() => contact.refetch()} />
      ) : (
        <ContactDetailView contact={contact.data} onClose={onClose} />
      )}
    </Drawer>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-2 border-b border-slate-100 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="col-span-2 break-words text-slate-900">{children}</dd>
    </div>
  );
}

function ContactDetailView({ contact, onClose }: { contact: ContactDetail; onClose: () => void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const lists = useLists();
  const erase = useEraseContact();
  const remove = useDeleteContact();
  const listNames = new Map((lists.data ?? []).map((l) => [l.id, l.name]));
  if (editing) return <ContactEditForm contact={contact} onDone={() => setEditing(false)} />;
  const fields = Object.entries(contact.fields);
  const legalBasisText = (basis: string | null) => {
    if (!basis) return '—';
    const label = LEGAL_BASIS_LABELS[basis];
    return label ? t(label) : basis;
  };
  return (
    <div className="space-y-6">
      <section>
        <div className="mb-2 flex items-center justify-between">
          <h3 className="font-semibold text-slate-900">{t('contacts.drawer.data')}</h3>
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            {t('contacts.drawer.edit')}
          </Button>
        </div>
        <dl>
          <Row label={t('contacts.form.email')}>{contact.email}</Row>
          <Row label={t('contacts.form.name')}>{contact.name || '—'}</Row>
          <Row label={t('contacts.form.status')}>
            <StatusBadge status={contact.status} />
          </Row>
          {fields.map(([key, value]) => (
            // The same name the CSV export gives the column ("data_nascimento" → "Data nascimento").
            <Row key={key} label={fieldHeader(key)}>
              {displayFieldValue(value)}
            </Row>
          ))}
          <Row label={t('contacts.table.createdAt')}>{formatDateTime(contact.createdAt)}</Row>
          <Row label={t('contacts.drawer.updatedAt')}>{formatDateTime(contact.updatedAt)}</Row>
        </dl>
      </section>
      <section>
        <h3 className="mb-2 font-semibold text-slate-900">{t('contacts.drawer.lists')}</h3>
        {contact.lists.length === 0 ? (
          <p className="text-sm text-slate-500">{t('contacts.drawer.noLists')}</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {contact.lists.map((m) => (
              <li key={m.listId} className="flex justify-between rounded-lg bg-slate-50 px-3 py-2">
                <span>{listNames.get(m.listId) ?? t('contacts.drawer.listFallback')}</span>
                <span className="text-slate-500">
                  {t(m.status === 'pending' ? 'contacts.drawer.pendingSince' : 'contacts.drawer.memberSince', {
                    date: formatDateTime(m.createdAt),
                  })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h3 className="mb-2 font-semibold text-slate-900">{t('contacts.drawer.consent')}</h3>
        <dl>
          <Row label={t('contacts.form.legalBasis')}>{legalBasisText(contact.consent.legalBasis)}</Row>
          <Row label={t('contacts.drawer.source')}>{contact.consent.source || '—'}</Row>
          <Row label={t('contacts.drawer.date')}>{formatDateTime(contact.consent.at)}</Row>
          <Row label={t('contacts.drawer.ip')}>{contact.consent.ip || '—'}</Row>
          {contact.consent.text ? <Row label={t('contacts.drawer.acceptedText')}>{contact.consent.text}</Row> : null}
        </dl>
      </section>
      <ActivitySection contactId={contact.id} />
      <section className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
        <Button variant="outline" onClick={() => downloadUrl(exportContactDataUrl(contact.id))}>
          {t('contacts.drawer.exportJson')}
        </Button>
        <Button
          variant="outline"
          onClick={() =>
            confirmAction({
              title: t('contacts.drawer.deleteTitle'),
              description: t('contacts.drawer.deleteBody', { email: contact.email }),
              action: async () => {
                try {
                  await remove.mutateAsync(contact.id);
                  toast({ title: t('contacts.drawer.deleted'), variant: 'success' });
                  onClose();
                } catch (error) {
                  toast({ title: t('contacts.drawer.deleteFailed'), description: errorText(error), variant: 'error' });
                }
              },
            })
          }
        >
          {t('contacts.drawer.delete')}
        </Button>
        <Button
          variant="destructive"
          onClick={() =>
            confirmAction({
              title: t('contacts.drawer.eraseTitle'),
              description: t('contacts.drawer.eraseBody', { email: contact.email }),
              action: async () => {
                try {
                  await erase.mutateAsync(contact.id);
                  toast({ title: t('contacts.drawer.erased'), variant: 'success' });
                  onClose();
                } catch (error) {
                  toast({ title: t('contacts.drawer.eraseFailed'), description: errorText(error), variant: 'error' });
                }
              },
            })
          }
        >
          {t('contacts.drawer.erase')}
        </Button>
      </section>
    </div>
  );
}

function ContactEditForm({ contact, onDone }: { contact: ContactDetail; onDone: () => void }) {
  const { t } = useI18n();
  const update = useUpdateContact(contact.id);
  const [email, setEmail] = useState(contact.email);
  const [name, setName] = useState(contact.name ?? '');
  const [status, setStatus] = useState<ContactStatus>(contact.status);
  const [fields, setFields] = useState(Object.entries(contact.fields).map(([k, v]) => ({ k, v })));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), []);
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        try {
          await update.mutateAsync({
            email,
            name: name || null,
            status,
            fields: Object.fromEntries(fields.filter((f) => f.k.trim()).map((f) => [f.k.trim(), f.v])),
          });
          toast({ title: t('contacts.form.saved'), variant: 'success' });
          onDone();
        } catch (failure) {
          setError(errorText(failure));
        }
      }}
    >
      <div>
        <Label htmlFor="edit-email">{t('contacts.form.email')}</Label>
        <Input id="edit-email" className="mt-1.5" value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div>
        <Label htmlFor="edit-name">{t('contacts.form.name')}</Label>
        <Input id="edit-name" className="mt-1.5" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div>
        <Label htmlFor="edit-status">{t('contacts.form.status')}</Label>
        <Select
          id="edit-status"
          className="mt-1.5"
          value={status}
          onChange={(e) => setStatus(e.target.value as ContactStatus)}
        >
          {Object.entries(CONTACT_STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </Select>
      </div>
      <CustomFieldsEditor fields={fields} onChange={setFields} keyPlaceholder="contacts.form.fieldPlaceholder" />
      <FieldError>{error}</FieldError>
      <div className="flex gap-2">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('contacts.form.saving') : t('contacts.form.save')}
        </Button>
        <Button variant="outline" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

const EVENT_LABELS: Record<string, MessageKey> = {
  open: 'contacts.activity.open',
  opened: 'contacts.activity.open',
  click: 'contacts.activity.click',
  clicked: 'contacts.activity.click',
  unsubscribe: 'contacts.activity.unsubscribe',
  unsubscribed: 'contacts.activity.unsubscribe',
  bounce: 'contacts.activity.bounce',
  bounced: 'contacts.activity.bounce',
  complaint: 'contacts.activity.complaint',
  complained: 'contacts.activity.complaint',
};

const MESSAGE_LABELS: Record<string, MessageKey> = {
  sent: 'contacts.message.sent',
  failed: 'contacts.message.failed',
  skipped: 'contacts.message.skipped',
  queued: 'contacts.message.queued',
  sending: 'contacts.message.sending',
};

/** Normalises the event kind (`open` or `opened`…) to its noun. */
const BASE_KINDS: Record<string, string> = {
  opened: 'open',
  clicked: 'click',
  unsubscribed: 'unsubscribe',
  bounced: 'bounce',
  complained: 'complaint',
};
const baseKind = (kind: string) => BASE_KINDS[kind] ?? kind;

/** Campaigns received (delivered) and the human opens, clicks, unsubscribes and bounces across them. */
export function activityCounts(activity: ContactActivity) {
  const human = activity.events.filter((e) => !e.machine);
  const count = (kind: string) => human.filter((e) => baseKind(e.kind) === kind).length;
  return {
    received: new Set(activity.messages.filter((m) => m.status === 'sent').map((m) => m.campaignId)).size,
    opens: count('open'),
    clicks: count('click'),
    unsubscribes: activity.events.filter((e) => baseKind(e.kind) === 'unsubscribe').length,
    bounces: activity.events.filter((e) => baseKind(e.kind) === 'bounce').length,
  };
}

/** Sent messages and what the contact did with them (opens, clicks, bounces…), newest first. */
function ActivitySection({ contactId }: { contactId: string }) {
  const { t, locale } = useI18n();
  const activity = useContactActivity(contactId);
  const counts = activity.data ? activityCounts(activity.data) : null;
  const number = new Intl.NumberFormat(locale);
  const eventText = (e: { kind: string; machine?: boolean | null; url?: string | null }) => {
    const label = EVENT_LABELS[e.kind];
    let text = label ? t(label) : e.kind;
    if (e.machine) text = t('contacts.activity.automatic', { event: text });
    if (e.url) text = t('contacts.activity.onUrl', { event: text, url: e.url });
    return text;
  };
  const items = activity.data
    ? [
        ...activity.data.events.map((e) => ({
          at: e.at,
          text: eventText(e),
          campaign: e.campaignName,
        })),
        ...activity.data.messages.map((m) => {
          const label = MESSAGE_LABELS[m.status];
          return { at: m.sentAt, text: label ? t(label) : m.status, campaign: m.campaignName };
        }),
      ]
        .sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''))
        .slice(0, 50)
    : [];
  return (
    <section>
      <h3 className="mb-2 font-semibold text-slate-900">{t('contacts.activity.title')}</h3>
      {activity.isPending ? (
        <p className="text-sm text-slate-500">{t('common.loading')}</p>
      ) : activity.isError ? (
        <p className="text-sm text-red-700">{errorText(activity.error)}</p>
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-500">{t('contacts.activity.empty')}</p>
      ) : (
        <>
          {counts ? (
            <dl
              className="mb-3 grid grid-cols-3 gap-2 text-sm sm:grid-cols-5"
              aria-label={t('contacts.summary.label')}
              data-testid="contact-activity-counts"
            >
              {(['received', 'opens', 'clicks', 'unsubscribes', 'bounces'] as const).map((key) => (
                <div key={key} className="rounded-lg bg-slate-50 px-2 py-2">
                  <dt className="text-xs leading-tight text-slate-500">{t(`contacts.summary.${key}`)}</dt>
                  <dd className="text-lg font-bold tabular-nums text-slate-900">{number.format(counts[key])}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          <ol className="space-y-1 text-sm">
            {items.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a static, sorted timeline.
              <li key={index} className="flex justify-between gap-3 rounded-lg bg-slate-50 px-3 py-2">
                <span className="min-w-0 truncate">
                  <span className="font-medium text-slate-800">{item.text}</span>
                  <span className="text-slate-500"> · {item.campaign}</span>
                </span>
                <span className="shrink-0 text-slate-500">{formatDateTime(item.at)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
