import { collect } from './collect';

// Every namespace of one language in one chunk; new files in ../locales/en/ are picked up.
export default collect(import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/*.json', { eager: true }));
