import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TeamInviteInput, TeamRole } from '@masar/shared';
import { masar, unwrap, idempotent } from '../../../lib/api';
import { PROFILE_QUERY_KEY } from '../../../lib/session';

/** Team members (issue 8): GET/POST /account/team, PATCH/DELETE /account/team/:id, invitations, leave. */
export const TEAM_KEY = ['account', 'team'] as const;
const INVITATIONS_KEY = ['account', 'team', 'invitations'] as const;

export function useTeam() {
  return useQuery({ queryKey: TEAM_KEY, queryFn: () => unwrap(masar.GET('/api/v1/account/team')) });
}
/** Invite; `key` is the Idempotency-Key: keep it across retries of the same invitation. */
export function useInvite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: TeamInviteInput; key: string }) => unwrap(masar.POST('/api/v1/account/team', { body, headers: idempotent(key) })),
    onSuccess: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
export function useChangeRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: TeamRole }) =>
      unwrap(masar.PATCH('/api/v1/account/team/{id}', { params: { path: { id } }, body: { role } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
export function useRemoveMember() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(masar.DELETE('/api/v1/account/team/{id}', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}

export function useInvitations() {
  return useQuery({ queryKey: INVITATIONS_KEY, queryFn: () => unwrap(masar.GET('/api/v1/account/team/invitations')) });
}
/** Accept or decline; accepting (and leaving) changes whose account the session acts for: the profile is fetched again. */
export function useAnswerInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
      unwrap(masar.POST(`/api/v1/account/team/invitations/{id}/${answer}`, { params: { path: { id } } })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: INVITATIONS_KEY });
      await qc.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
    },
  });
}
export function useLeaveTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(masar.POST('/api/v1/account/team/leave')),
    onSuccess: () => qc.invalidateQueries(),
  });
}
