import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@masar/shared';
import { notifySuccess, showApiError } from '../../../lib/form';
import { useAnswerInvitation, useInvitations, useLeaveTeam } from '../api/team';

/**
 * On the account page (issue 8): pending team invitations addressed to my phone, with Accept and
 * Decline; for a member, whose account they act for and a Leave button. Namespace 'team'.
 */
export function InvitationsCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation('team');
  const invitations = useInvitations();
  const answer = useAnswerInvitation();
  const leave = useLeaveTeam();
  const items = invitations.data?.items ?? [];
  return (
    <Stack gap="sm">
      {profile.team && (
        <Alert variant="light" icon={<IconUsersGroup size={18} />} title={t('acting.title', { company: profile.companyName })} data-testid="team-acting">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">{t('acting.hint', { role: t(`roles.${profile.team.role}`) })}</Text>
            <Button
              size="xs"
              variant="default"
              loading={leave.isPending}
              onClick={() => {
                if (!window.confirm(t('acting.leaveConfirm', { company: profile.companyName }))) return;
                leave.mutate(undefined, { onSuccess: () => notifySuccess(t('acting.left')), onError: (e) => showApiError(e) });
              }}
            >
              {t('acting.leave')}
            </Button>
          </Group>
        </Alert>
      )}
      {items.map((inv) => (
        <Alert
          key={inv.id}
          variant="light"
          color="masar"
          icon={<IconUsersGroup size={18} />}
          title={t('invitation.title', { company: inv.ownerCompanyName })}
          data-testid="team-invitation"
        >
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">{t('invitation.hint', { role: t(`roles.${inv.role}`) })}</Text>
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                disabled={answer.isPending}
                onClick={() =>
                  answer.mutate(
                    { id: inv.id, answer: 'decline' },
                    { onSuccess: () => notifySuccess(t('invitation.declined')), onError: (e) => showApiError(e) },
                  )
                }
              >
                {t('invitation.decline')}
              </Button>
              <Button
                size="xs"
                loading={answer.isPending && answer.variables?.id === inv.id}
                onClick={() =>
                  answer.mutate({ id: inv.id, answer: 'accept' }, { onSuccess: () => notifySuccess(t('invitation.accepted')), onError: (e) => showApiError(e) })
                }
                data-testid="team-accept"
              >
                {t('invitation.accept')}
              </Button>
            </Group>
          </Group>
        </Alert>
      ))}
    </Stack>
  );
}
