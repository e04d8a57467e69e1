import { collect } from './collect';

// Every namespace of one language in one chunk; new files in ../locales/ar/ are picked up.
export default collect(import.meta.glob<{ default: Record<string, unknown> }>('../locales/ar/*.json', { eager: true }));
