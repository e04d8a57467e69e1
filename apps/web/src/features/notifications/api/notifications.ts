import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MarkNotificationsBody, NotificationCategory, NotificationPreferences } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';

/**
 * The unread count for the bell. Until the real-time channel (MQTT, issue 21) publishes new
 * notifications, it is refreshed on window focus and every 60 s — the one allowed poll, of our
 * own API (docs/notifications.md); the MQTT consumer will invalidate this query instead.
 */
export function useUnreadCount(enabled = true) {
  return useQuery({
    queryKey: ['notifications', 'unread'],
    queryFn: () => unwrap(masar.GET('/api/v1/user/notification/unread-count')).then((d) => d.unread),
    refetchInterval: 60_000,
    refetchOnWindowFocus: 'always',
    enabled,
  });
}

/** The latest `limit` notifications (the bell's popover), fetched when `enabled` (the popover is open). */
export function useLatest(limit: number, enabled: boolean) {
  return useQuery({
    queryKey: ['notifications', 'latest', limit],
    queryFn: () => unwrap(masar.GET('/api/v1/user/notification', { params: { query: { limit } } })),
    enabled,
  });
}

/** My notifications page after page (cursor), filtered by category and unread only. */
export function useNotificationPages(filters: { category?: NotificationCategory; unread: boolean }) {
  return useInfiniteQuery({
    queryKey: ['notifications', 'list', filters.category ?? 'all', filters.unread],
    queryFn: ({ pageParam }) =>
      unwrap(
        masar.GET('/api/v1/user/notification', {
          params: {
            query: {
              limit: 20,
              ...(filters.category ? { category: filters.category } : {}),
              ...(filters.unread ? { unread: '1' as const } : {}),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Mark some of mine read, or all; refreshes the count and the lists. */
export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkNotificationsBody) => unwrap(masar.PATCH('/api/v1/user/notification', { body })),
    onSuccess: (r) => {
      qc.setQueryData(['notifications', 'unread'], r.unread);
      void qc.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}

export function usePreferences() {
  return useQuery({ queryKey: ['notifications', 'preferences'], queryFn: () => unwrap(masar.GET('/api/v1/user/notification/preferences')) });
}

export function useSavePreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferences) => unwrap(masar.PUT('/api/v1/user/notification/preferences', { body })),
    onSuccess: (p) => qc.setQueryData(['notifications', 'preferences'], p),
  });
}
