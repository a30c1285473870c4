import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { ConfirmDialog } from './confirm-dialog';
import { Toaster } from './toaster';

/** The application shell (spec §2): the routed view, one toast area, one confirmation dialog. */
export function RootLayout() {
  const { pathname, hash } = useLocation();
  // A new page opens at its top (the browser keeps the old scroll on client-side navigation); #anchors keep theirs.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new path, which is what it is for.
  useEffect(() => {
    // 'instant': the page's smooth scrolling (index.css) is for #anchors, not for a new page.
    if (!hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
  return (
    <>
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
      <Toaster />
      <ConfirmDialog />
    </>
  );
}

export function PageFallback() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner />
    </div>
  );
}
