import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { findAccountOwner } from '../accounts/account-directory';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Tells the account owner that the system paused an automation (short balance, a template gone, the sender no
 * longer verified), with the reason and the link to resume it. Called once per pause: only the worker whose
 * compare-and-set moved the automation from active to paused sends it.
 */
export async function notifyAutomationPaused(
  deps: { db: Db; mailer: Mailer | null; publicUrl: string },
  accountId: string,
  automationName: string,
  automationId: string,
  reason: string,
): Promise<void> {
  if (!deps.mailer) return;
  const owner = await findAccountOwner(deps.db, accountId);
  if (!owner) return;
  const link = `${deps.publicUrl}/dashboard/automations/${automationId}`;
  await deps.mailer.send({
    to: owner.email,
    subject: `Automação pausada: ${automationName}`,
    text:
      `Olá, ${owner.name}.\n\nA automação "${automationName}" da conta "${owner.accountName}" foi pausada.\n` +
      `Motivo: ${reason}\n\nEnquanto ela estiver pausada, nenhuma mensagem dela é enviada; quem ` +
      `já estava nela mantém o lugar. Resolva o motivo e clique em "Retomar" em ${link}\n\nEquipe Carteiro`,
    html:
      `<p>Olá, ${escapeHtml(owner.name)}.</p><p>A automação <strong>${escapeHtml(automationName)}</strong> da conta ` +
      `<strong>${escapeHtml(owner.accountName)}</strong> foi pausada.</p><p>Motivo: ${escapeHtml(reason)}</p>` +
      '<p>Enquanto ela estiver pausada, nenhuma mensagem dela é enviada; quem já estava nela ' +
      `mantém o lugar.</p><p>Resolva o motivo e <a href="${escapeHtml(link)}">clique em "Retomar"</a>.</p><p>Equipe Carteiro</p>`,
  });
}
