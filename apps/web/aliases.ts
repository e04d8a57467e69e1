import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
// the package's CommonJS main is <package>/cjs/index.cjs; its ES modules sit beside it in esm/
const notificationsEsm = join(dirname(require.resolve('@mantine/notifications')), '..', 'esm');

/**
 * Module aliases shared by the web build (vite.config.ts), the prerender build and the unit tests
 * (vitest.config.ts).
 *
 * `@mantine/notifications/container` is the toast container module alone. The package's
 * "exports" reach only its index, and a dynamic import of the index is folded into the first
 * download whenever the index is also imported statically (as every `notifications.show()` call
 * does). The container pulls react-remove-scroll and the transition library with it, so it is
 * fetched after the first paint instead (app/Providers.tsx).
 */
export const webAliases = [{ find: /^@mantine\/notifications\/container$/, replacement: join(notificationsEsm, 'Notifications.mjs') }];
