import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TeamInvitationList, TeamInviteInput, TeamList, TeamMember, TeamRole } from '@masar/shared';
import { api } from '../../../lib/api';
import { PROFILE_QUERY_KEY } from '../../../lib/session';

/** Team members (issue 8): GET/POST /account/team, PATCH/DELETE /account/team/:id, invitations, leave. */
export const TEAM_KEY = ['account', 'team'] as const;
const INVITATIONS_KEY = ['account', 'team', 'invitations'] as const;

export function useTeam() {
  return useQuery({ queryKey: TEAM_KEY, queryFn: () => api.get<TeamList>('/account/team') });
}
/** Invite; `key` is the Idempotency-Key: keep it across retries of the same invitation. */
export function useInvite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: TeamInviteInput; key: string }) => api.post<TeamMember>('/account/team', body, { idempotencyKey: key }),
    onSuccess: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
export function useChangeRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: TeamRole }) => api.patch<TeamMember>(`/account/team/${id}`, { role }),
    onSuccess: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
export function useRemoveMember() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<TeamMember>(`/account/team/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}

export function useInvitations() {
  return useQuery({ queryKey: INVITATIONS_KEY, queryFn: () => api.get<TeamInvitationList>('/account/team/invitations') });
}
/** Accept or decline; accepting (and leaving) changes whose account the session acts for: the profile is fetched again. */
export function useAnswerInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) => api.post<unknown>(`/account/team/invitations/${id}/${answer}`),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: INVITATIONS_KEY });
      await qc.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
    },
  });
}
export function useLeaveTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<null>('/account/team/leave'),
    onSuccess: () => qc.invalidateQueries(),
  });
}
