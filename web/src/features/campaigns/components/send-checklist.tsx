import { type SendCheckItem, sendChecklist } from '@carteiro/shared';
import { Link } from 'react-router';
import { Card, CardContent } from '@/components/ui/card';
import { useI18n } from '@/lib/i18n';
import { useSenderAlignment } from '@/lib/queries/senders';
import { useSession } from '@/lib/use-session';
import type { Campaign, CampaignSummary } from '../api/types';
import { countForm } from './count-form';

/** The shared send checklist (shared/src/send-checklist.ts) for a campaign, with the account of the session. */
export function useSendChecklist(campaign: Campaign, summary: CampaignSummary | undefined): SendCheckItem[] {
  // Until the session is loaded the account's checks (sender default, identity) wait rather than alarm.
  const account = (useSession().data?.account ?? undefined) as
    | { defaultFromEmail?: string | null; legalName?: string | null; taxId?: string | null; address?: string | null }
    | undefined;
  // The From's verification, by the server's one sending rule (the same answer the sender card shows).
  const from = campaign.fromEmail?.trim() || account?.defaultFromEmail?.trim() || null;
  const alignment = useSenderAlignment(from);
  return sendChecklist({
    campaignId: campaign.id,
    subject: campaign.subject,
    includeListIds: campaign.includeListIds,
    includeSegmentIds: campaign.includeSegmentIds,
    resendOfCampaignId: campaign.resendOfCampaignId,
    recipients: summary?.recipients,
    html: campaign.template,
    fromEmail: campaign.fromEmail,
    isSenderVerified: alignment.data?.allowed,
    account,
    isBalanceSufficient: summary?.isBalanceSufficient,
  });
}

/** An item's texts in the interface's language (the item carries the pt-BR ones the server answers with). */
function useCheckTexts() {
  const { t } = useI18n();
  return (item: SendCheckItem) => ({
    label: t(`campaigns.checklist.label.${item.key}`),
    problem: t(`campaigns.checklist.${item.case}.problem`, {
      from: item.from ?? '',
      missing: (item.identityMissing ?? []).map((field) => t(`campaigns.checklist.identityField.${field}`)).join(', '),
    }),
    fix: t(`campaigns.checklist.${item.case}.fix`),
  });
}

/** The missing items, each with what is missing and a link to fix it. */
export function MissingChecks({ items }: { items: SendCheckItem[] }) {
  const texts = useCheckTexts();
  return (
    <ul className="space-y-3" data-testid="send-missing">
      {items.map((item) => (
        <li key={item.key} className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">{texts(item).label}</p>
          <p className="mt-0.5">{texts(item).problem}</p>
          <Link to={item.fix.href} className="mt-1 inline-block font-semibold text-brand-700 underline">
            {texts(item).fix}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** "Antes de enviar": every check with ✓ or what is missing, on the campaign page. */
export function SendChecklistCard({ items }: { items: SendCheckItem[] }) {
  const { t } = useI18n();
  const texts = useCheckTexts();
  const missing = items.filter((item) => !item.ok);
  return (
    <Card className="mb-6" data-testid="send-checklist">
      <CardContent>
        <h2 className="text-lg font-bold text-slate-900">{t('campaigns.checklist.title')}</h2>
        {missing.length === 0 ? (
          <p className="mt-1 text-sm text-emerald-800">{t('campaigns.checklist.ready')}</p>
        ) : (
          <p className="mt-1 text-sm text-slate-600">
            {t(`campaigns.checklist.missing.${countForm(missing.length)}`, { count: missing.length })}
          </p>
        )}
        <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
          {items
            .filter((item) => item.ok)
            .map((item) => (
              <li key={item.key} className="text-emerald-800">
                <span aria-hidden="true">✓ </span>
                {texts(item).label}
              </li>
            ))}
        </ul>
        {missing.length > 0 ? (
          <div className="mt-3">
            <MissingChecks items={missing} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
