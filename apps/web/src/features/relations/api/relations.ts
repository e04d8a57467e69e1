import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSettingsPatch, RelationKind } from '@masar/shared';
import { loadNamespaces } from '../../../i18n';
import { idempotent, masar, unwrap } from '../../../lib/api';

/**
 * Favourites, blocked users, contact settings and the contact card (issue 8; spec §7
 * /account/favourite, /account/blocked; /account/settings; /loads/:id/contact).
 */
const LIST_KEY = (kind: RelationKind) => ['account', 'relations', kind] as const;
const STATUS_KEY = (userId: string) => ['account', 'relations', 'status', userId] as const;
const SETTINGS_KEY = ['account', 'settings'] as const;
const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/** My favourites or blocked users, keyset pages of 20 (fetchNextPage for more). */
export function useRelationList(kind: RelationKind) {
  return useInfiniteQuery({
    queryKey: LIST_KEY(kind),
    queryFn: ({ pageParam }) => unwrap(masar.GET(`/api/v1/account/${kind}`, { params: { query: { limit: 20, cursor: pageParam } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** How I stand with `userId` (favourite, blocked), with the 'relations' strings (the menu lives on other pages). */
export function useRelationStatus(userId: string, enabled = true) {
  return useQuery({
    queryKey: STATUS_KEY(userId),
    queryFn: async () =>
      (await Promise.all([unwrap(masar.GET('/api/v1/account/relations/{userId}', { params: { path: { userId } } })), loadNamespaces(['relations'])]))[0],
    enabled,
  });
}

/** Add to or remove from a list; every list and status is refetched afterwards (a block also removes favourites). */
export function useRelationChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, userId, add, reason }: { kind: RelationKind; userId: string; add: boolean; reason?: string }) =>
      add
        ? unwrap(masar.POST(`/api/v1/account/${kind}`, { body: { userId, ...(reason ? { reason } : {}) }, headers: idempotent(newKey()) }))
        : unwrap(masar.DELETE(`/api/v1/account/${kind}/{userId}`, { params: { path: { userId } } })),
    onSuccess: async (_d, v) => {
      await qc.invalidateQueries({ queryKey: ['account', 'relations'] });
      // a block (or unblock) changes what the board, the load and the offers show
      if (v.kind === 'blocked') await qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'account' });
    },
  });
}

export function useAccountSettings() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: () => unwrap(masar.GET('/api/v1/account/settings')) });
}
export function useSaveAccountSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: AccountSettingsPatch) => unwrap(masar.PATCH('/api/v1/account/settings', { body: patch })),
    onSuccess: (data) => qc.setQueryData(SETTINGS_KEY, data),
  });
}

/** The other party of my booked load and how to reach it (with the 'relations' strings). */
export function useContactCard(loadId: string) {
  return useQuery({
    queryKey: ['loads', loadId, 'contact'],
    queryFn: async () =>
      (await Promise.all([unwrap(masar.GET('/api/v1/loads/{id}/contact', { params: { path: { id: loadId } } })), loadNamespaces(['relations'])]))[0],
    retry: false,
  });
}
