import { useEffect } from 'react';

/** The browser tab's title for a page: "<title> — Carteiro". */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — Carteiro`;
  }, [title]);
}
