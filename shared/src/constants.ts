/** Business constants of spec §9, in one place. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 5000;
export const TOAST_REMOVE_DELAY_AFTER_DISMISS_MS = 1_000_000;
export const REQUEST_TIMEOUT_DESKTOP_MS = 30_000;
export const REQUEST_TIMEOUT_MOBILE_MS = 60_000;
export const UPLOAD_RETRY_MAX_DELAY_MS = 64_000;
export const UPLOAD_RETRY_STATUSES = [408, 429] as const;
/** OWASP ASVS 5.0 / NIST SP 800-63B: at least 8 characters, no composition rules (ADR 0017). */
export const DEFAULT_MIN_PASSWORD_LENGTH = 8;
export const DEFAULT_MAX_PASSWORD_LENGTH = 128;
export const DEFAULT_PORT = 10100;
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';
export const COMPAT_COLLECTIONS = ['account', 'campaigns'] as const;
