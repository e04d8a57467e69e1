import { useRef, useState } from 'react';
import { ActionIcon, Badge, Button, Card, Container, Group, Modal, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TEAM_ROLES, teamInviteInput, type TeamMember, type TeamRole } from '@masar/shared';
import { notifySuccess, showApiError, zodValidate } from '../../../lib/form';
import { useChangeRole, useInvite, useRemoveMember, useTeam } from '../api/team';

const STATUS_COLOR: Record<TeamMember['status'], string> = { invited: 'yellow', active: 'masar', declined: 'gray', removed: 'gray' };
const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/** The invite dialog: phone (+966 prefilled; any Saudi mobile format), name, role. Checked with the shared schema before sending. */
export function InviteForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('team');
  const invite = useInvite();
  // one Idempotency-Key per invitation, kept across retries of the same one
  const key = useRef(newKey());
  const form = useForm({
    mode: 'controlled',
    initialValues: { phone: '+966 ', name: '', role: 'dispatcher' as TeamRole },
    validate: zodValidate(teamInviteInput),
  });
  const roles = TEAM_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }));
  const submit = form.onSubmit(async (v) => {
    try {
      await invite.mutateAsync({ body: teamInviteInput.parse(v), key: key.current });
      notifySuccess(t('invite.sent'));
      onDone();
    } catch (e) {
      showApiError(e, form, { TEAM_OWN_PHONE: 'phone', TEAM_MEMBER_EXISTS: 'phone', TEAM_PHONE_IN_OTHER_TEAM: 'phone' });
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('invite.phone')}
          description={t('invite.phoneHint')}
          type="tel"
          dir="ltr"
          withAsterisk
          autoComplete="off"
          key={form.key('phone')}
          {...form.getInputProps('phone')}
          data-testid="team-phone"
        />
        <TextInput label={t('invite.name')} withAsterisk maxLength={80} key={form.key('name')} {...form.getInputProps('name')} data-testid="team-name" />
        <Select
          label={t('invite.role')}
          data={roles}
          allowDeselect={false}
          key={form.key('role')}
          {...form.getInputProps('role')}
          description={t(`roleHints.${form.getValues().role}`)}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={invite.isPending} data-testid="team-send">
            {t('invite.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MemberRow({ m }: { m: TeamMember }) {
  const { t } = useTranslation('team');
  const change = useChangeRole();
  const remove = useRemoveMember();
  const open = m.status === 'invited' || m.status === 'active';
  return (
    <Card withBorder radius="md" padding="md" data-testid="team-member">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>
              <bdi>{m.name}</bdi>
            </Text>
            <Badge color={STATUS_COLOR[m.status]} variant="light">
              {t(`status.${m.status}`)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed" dir="ltr" style={{ textAlign: 'start' }}>
            {m.phone}
          </Text>
        </div>
        {open ? (
          <Group gap="xs" wrap="nowrap">
            <Select
              aria-label={t('roleOf', { name: m.name })}
              size="xs"
              w={140}
              data={TEAM_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
              value={m.role}
              allowDeselect={false}
              disabled={change.isPending}
              onChange={(role) =>
                role &&
                role !== m.role &&
                change.mutate({ id: m.id, role: role }, { onSuccess: () => notifySuccess(t('roleChanged')), onError: (e) => showApiError(e) })
              }
            />
            <ActionIcon
              variant="subtle"
              color="masarRed"
              aria-label={t('removeNamed', { name: m.name })}
              loading={remove.isPending}
              onClick={() => {
                if (!window.confirm(t('removeConfirm', { name: m.name }))) return;
                remove.mutate(m.id, { onSuccess: () => notifySuccess(t('removed')), onError: (e) => showApiError(e) });
              }}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t(`roles.${m.role}`)}
          </Text>
        )}
      </Group>
    </Card>
  );
}

/** /shippers|carriers|brokers/account/team — team members (issue 8): list, invite by phone, change role, remove. Namespace 'team'. */
export default function TeamPage() {
  const { t } = useTranslation('team');
  const team = useTeam();
  const [inviting, setInviting] = useState(false);
  const items = team.data?.items ?? [];
  const open = items.filter((m) => m.status === 'invited' || m.status === 'active').length;
  const full = !!team.data && open >= team.data.max;
  return (
    <Container size="md" py="xl">
      <Group justify="space-between" mb="xs">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('title')}
        </Title>
        <Button leftSection={<IconPlus size={16} />} disabled={full || !team.data} onClick={() => setInviting(true)} data-testid="team-invite">
          {t('invite.title')}
        </Button>
      </Group>
      <Text c="dimmed" mb="xs">
        {t('hint')}
        {team.data && (
          <Badge component="span" ms="sm" variant="light">
            {t('count', { n: open, max: team.data.max })}
          </Badge>
        )}
      </Text>
      <Text size="sm" c="dimmed" mb="lg" data-testid="team-leaving">
        {t('leaving')}
      </Text>
      <Card withBorder radius="md" padding="sm" mb="lg">
        <Stack gap={4}>
          {TEAM_ROLES.map((r) => (
            <Text key={r} size="sm">
              <Text span fw={600}>
                {t(`roles.${r}`)}
              </Text>
              {': '}
              {t(`roleHints.${r}`)}
            </Text>
          ))}
        </Stack>
      </Card>
      {team.isLoading ? (
        <Skeleton h={120} radius="lg" />
      ) : team.isError ? (
        <Text c="dimmed">{team.error.message}</Text>
      ) : items.length === 0 ? (
        <Text c="dimmed">{t('empty')}</Text>
      ) : (
        <Stack gap="sm">
          {items.map((m) => (
            <MemberRow key={m.id} m={m} />
          ))}
        </Stack>
      )}
      <Modal opened={inviting} onClose={() => setInviting(false)} title={t('invite.title')}>
        {inviting && <InviteForm onDone={() => setInviting(false)} />}
      </Modal>
    </Container>
  );
}
