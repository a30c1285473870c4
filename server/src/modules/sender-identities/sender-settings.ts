import type { Config } from '../../config';
import { resolveAuthSecret } from '../../config';
import type { SenderIdentitySettings } from './sender-identities';

/** The module's settings from the configuration (targets of the records senders publish, the key secret). */
export function senderIdentitySettings(config: Config): SenderIdentitySettings {
  const host = new URL(config.PUBLIC_URL).hostname;
  const bounceDomain = (config.BOUNCE_DOMAIN ?? host).toLowerCase();
  return {
    secret: resolveAuthSecret(config),
    publicUrl: config.PUBLIC_URL,
    confirmHours: config.SENDER_CONFIRM_HOURS,
    trackingDomains: config.TRACKING_DOMAINS === 'on',
    spfInclude: (config.SENDER_SPF_INCLUDE ?? `_spf.${bounceDomain}`).toLowerCase(),
    bounceDomain,
    trackingHost: host.toLowerCase(),
  };
}
