import type { RelationKind } from '@masar/shared';
import RelationListPage from './RelationListPage';
import SettingsPage from './SettingsPage';

/**
 * The one lazy entry of /<section>/favourites, /blocked (`kind`) and /setting (no kind): one
 * dynamic import in the app shell's route table instead of two (home bundle budget).
 */
export default function RelationsPage({ kind }: { kind?: RelationKind }) {
  return kind ? <RelationListPage kind={kind} /> : <SettingsPage />;
}
