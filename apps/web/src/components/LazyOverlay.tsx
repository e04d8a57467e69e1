import { lazy, Suspense } from 'react';
import type { DrawerProps, ModalProps } from '@mantine/core';

const ModalImpl = lazy(() => import('./overlays').then((m) => ({ default: m.Modal })));
const DrawerImpl = lazy(() => import('./overlays').then((m) => ({ default: m.Drawer })));

/**
 * Mantine's Modal, fetched the first time one opens (dialogs are rare; the code behind them —
 * focus trap, scroll lock, portal — stays out of every page's first download). Closed, it
 * renders nothing, so it closes without the exit animation.
 */
export function LazyModal(props: ModalProps) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <ModalImpl {...props} />
    </Suspense>
  );
}

/** Mantine's Drawer, fetched the first time one opens (see LazyModal). */
export function LazyDrawer(props: DrawerProps) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <DrawerImpl {...props} />
    </Suspense>
  );
}
