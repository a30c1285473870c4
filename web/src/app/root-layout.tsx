import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { ConfirmDialog } from './confirm-dialog';
import { Toaster } from './toaster';

/** The application shell (spec §2): the routed view, one toast area, one confirmation dialog. */
export function RootLayout() {
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
