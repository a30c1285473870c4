import { useAccount } from '@/stores/app-store';
import { DEFAULT_TIME_ZONE } from './zoned';

/** The account's time zone (dates on the campaign pages are shown and typed in it). */
export function useTimeZone(): string {
  const account = useAccount();
  return typeof account?.timeZone === 'string' ? account.timeZone : DEFAULT_TIME_ZONE;
}
