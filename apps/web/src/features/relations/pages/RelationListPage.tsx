import { Badge, Button, Card, Container, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBan, IconStar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RelationEntry, RelationKind } from '@masar/shared';
import { asLang, formatDate, formatNumber } from '../../../components/format';
import { notifySuccess, showApiError } from '../../../lib/form';
import { useRelationChange, useRelationList } from '../api/relations';

const TEXT = {
  favourite: { ns: 'favourites', remove: 'favourites.remove', done: 'favourites.removed', Icon: IconStar },
  blocked: { ns: 'blocked', remove: 'blocked.unblock', done: 'blocked.unblocked', Icon: IconBan },
} as const;

function Row({ e, kind }: { e: RelationEntry; kind: RelationKind }) {
  const { t, i18n } = useTranslation('relations');
  const change = useRelationChange();
  const remove = async () => {
    try {
      await change.mutateAsync({ kind, userId: e.userId, add: false });
      notifySuccess(t(TEXT[kind].done));
    } catch (err) {
      showApiError(err);
    }
  };
  return (
    <Card withBorder radius="md" padding="md" data-testid="relation-item">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>
              <bdi>{e.companyName}</bdi>
            </Text>
            <Badge variant="light" color="gray">
              {t(`accountType.${e.accountType}`, { defaultValue: '' })}
            </Badge>
            {e.verified && (
              <Badge variant="light" color="masar">
                {t('verified')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('since', { date: formatDate(e.createdAt, asLang(i18n.language), false) })}
          </Text>
          {e.reason && (
            <Text size="sm" c="dimmed">
              <bdi>{e.reason}</bdi>
            </Text>
          )}
        </Stack>
        <Button
          variant="light"
          color={kind === 'blocked' ? 'masar' : 'masarRed'}
          size="xs"
          loading={change.isPending}
          onClick={() => void remove()}
          data-testid="relation-remove"
        >
          {t(TEXT[kind].remove)}
        </Button>
      </Group>
    </Card>
  );
}

/**
 * /shippers|carriers|brokers/favourites and /blocked (spec §2 "Account", §7 /account/favourite,
 * /account/blocked): my list, newest first, 20 at a time, with remove / unblock.
 */
export default function RelationListPage({ kind }: { kind: RelationKind }) {
  const { t, i18n } = useTranslation('relations');
  const lang = asLang(i18n.language);
  const list = useRelationList(kind);
  const { ns, Icon } = TEXT[kind];
  const first = list.data?.pages[0];
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Container size="md" py="xl">
      <Group justify="space-between" mb="xs">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t(`${ns}.title`)}
        </Title>
        {first && (
          <Badge variant="light" size="lg">
            {t('count', { n: formatNumber(first.total, lang), max: formatNumber(first.max, lang) })}
          </Badge>
        )}
      </Group>
      <Text c="dimmed" mb="lg">
        {t(`${ns}.hint`)}
      </Text>
      {list.isLoading ? (
        <Skeleton h={120} radius="lg" />
      ) : items.length === 0 ? (
        <Card withBorder radius="lg" padding="xl" data-testid="relation-empty">
          <Stack align="center" gap="xs">
            <Icon size={32} aria-hidden />
            <Text fw={600}>{t(`${ns}.empty`)}</Text>
            <Text c="dimmed" size="sm" ta="center">
              {t(`${ns}.emptyNext`)}
            </Text>
          </Stack>
        </Card>
      ) : (
        <Stack gap="sm">
          {items.map((e) => (
            <Row key={e.userId} e={e} kind={kind} />
          ))}
          {list.hasNextPage && (
            <Button variant="subtle" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {t('more')}
            </Button>
          )}
        </Stack>
      )}
    </Container>
  );
}
