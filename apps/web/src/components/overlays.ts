// Loaded on demand by LazyOverlay.tsx: the first paint of a page does not carry dialog code.
export { Drawer, Modal } from '@mantine/core';
