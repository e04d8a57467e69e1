import { Alert, Anchor, Button, Center, Group, SimpleGrid, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Load } from '@masar/shared';
import { LoadCard } from '../../../components/LoadCard';
import { Loading } from '../../../components/Loading';

/**
 * The live loads of a public page (city, lane) for a guest: loading, error, the empty text, the
 * cards (each opens sign-in) and the sign-in / sign-up links — "see all" when the board has more
 * than shown. Test ids: `<id>-loads`, `<id>-no-loads`, `<id>-sign-in`.
 */
export function GuestLoads({ id, loads, empty }: { id: string; loads: UseQueryResult<{ items: Load[]; total?: number }>; empty: string }) {
  const { t } = useTranslation('public');
  const items = loads.data?.items ?? [];
  const more = (loads.data?.total ?? 0) > items.length;
  return (
    <>
      {loads.isLoading && (
        <Center h={160}>
          <Loading />
        </Center>
      )}
      {loads.isError && <Alert color="masarRed">{loads.error.message}</Alert>}
      {loads.isSuccess && items.length === 0 && (
        <Text c="dimmed" py="lg" data-testid={`${id}-no-loads`}>
          {empty}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid={`${id}-loads`}>
        {items.map((l) => (
          <LoadCard key={l.id} load={l} href="/login" />
        ))}
      </SimpleGrid>
      {loads.isSuccess && (
        <Group justify="center" mt="md">
          <Button component={Link} to="/login" variant={more ? 'filled' : 'light'} data-testid={`${id}-sign-in`}>
            {more ? t('city.signInForMore') : t('city.signInToBook')}
          </Button>
          <Anchor component={Link} to="/signup">
            {t('city.signUp')}
          </Anchor>
        </Group>
      )}
    </>
  );
}
