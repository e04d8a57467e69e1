import { collect } from './collect';

// Every namespace of one language in one chunk (but the page namespaces, PAGE_NAMESPACES in ../index.ts,
// fetched with their pages); new files in ../locales/en/ are picked up.
export default collect(
  import.meta.glob<{ default: Record<string, unknown> }>(
    [
      '../locales/en/*.json',
      '!../locales/en/{billing,verification,public,integrations,assignment,bayan,trips,shipments,vendors,profile,team,relations,fleet,csv,soon,trucks,tenders,notifications,dashboard,forecast,alerts,rates,chat}.json',
    ],
    {
      eager: true,
    },
  ),
);
