import {
  DEFAULT_MAX_PASSWORD_LENGTH,
  DEFAULT_MIN_PASSWORD_LENGTH,
  PRICE_PER_EMAIL_MILLIS,
  type PublicConfig,
} from '@carteiro/shared';
import { useEffect, useState } from 'react';
import { apiFetch } from './api-client';

/** Used until `/api/public-config` answers, and when it fails. */
export const FALLBACK_PUBLIC_CONFIG: PublicConfig = {
  contactEmail: 'contato@carteiro.local',
  operatorLegalName: '',
  operatorTaxId: '',
  dpoName: '',
  dpoEmail: '',
  googleSignIn: false,
  minPasswordLength: DEFAULT_MIN_PASSWORD_LENGTH,
  maxPasswordLength: DEFAULT_MAX_PASSWORD_LENGTH,
  priceMillis: PRICE_PER_EMAIL_MILLIS,
  devMailbox: false,
  topupMinMillis: 10_000,
};

let pending: Promise<PublicConfig> | null = null;

/** Fetches the public configuration once per page load; never rejects (falls back to the defaults). */
export function loadPublicConfig(): Promise<PublicConfig> {
  pending ??= apiFetch<Partial<PublicConfig>>('/api/public-config')
    .then((config) => ({ ...FALLBACK_PUBLIC_CONFIG, ...config }))
    .catch((error: unknown) => {
      console.warn('public-config unavailable; using the defaults', error);
      return FALLBACK_PUBLIC_CONFIG;
    });
  return pending;
}

/** Test hook: forget the cached answer. */
export function resetPublicConfigCache(): void {
  pending = null;
}

export function usePublicConfig(): PublicConfig {
  const [config, setConfig] = useState(FALLBACK_PUBLIC_CONFIG);
  useEffect(() => {
    let active = true;
    void loadPublicConfig().then((loaded) => {
      if (active) setConfig(loaded);
    });
    return () => {
      active = false;
    };
  }, []);
  return config;
}
