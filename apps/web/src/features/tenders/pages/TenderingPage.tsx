import { useState } from 'react';
import { Alert, Button, Center, Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconGavel } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TenderTab } from '@masar/shared';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { useTenders } from '../api/tenders';
import { ReceivedTenderCard, SentTenderCard } from '../components/TenderCards';
import { TenderDialog } from '../components/TenderDialog';
import { Loading } from '../../../components/Loading';

/**
 * /shippers|/carriers|/brokers/tendering-shipment (issue 19 "Tendering"): shippers see the tenders
 * they sent (answers side by side, award), carriers the ones they received (accept, counter,
 * decline); brokers both, in tabs. "Tender a load" opens the dialog.
 */
export default function TenderingPage() {
  const { t } = useTranslation('tenders');
  const base = useRoleBase();
  const paths = rolePaths(base);
  const [params, setParams] = useSearchParams();
  const tabs: TenderTab[] = base === '/shippers' ? ['sent'] : base === '/carriers' ? ['received'] : ['sent', 'received'];
  const tab: TenderTab = tabs.includes(params.get('tab') as TenderTab) ? (params.get('tab') as TenderTab) : tabs[0];
  const q = useTenders(tab);
  const [dialog, setDialog] = useState(false);
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Container size="lg" py="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={2}>{t('title')}</Title>
        {paths.canPost && (
          <Button leftSection={<IconGavel size={16} />} onClick={() => setDialog(true)} data-testid="tender-new">
            {t('new')}
          </Button>
        )}
      </Group>
      {tabs.length > 1 && (
        <Tabs value={tab} onChange={(v) => setParams(v ? { tab: v } : {}, { replace: true })} mb="md">
          <Tabs.List>
            {tabs.map((x) => (
              <Tabs.Tab key={x} value={x} data-testid={`tenders-tab-${x}`}>
                {t(`tab.${x}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
      {q.isPending && (
        <Center h={200}>
          <Loading />
        </Center>
      )}
      {q.isError && <Alert color="masarRed">{q.error.message}</Alert>}
      {q.isSuccess && items.length === 0 && (
        <Text c="dimmed" ta="center" py="xl" data-testid="tenders-empty">
          {t(`empty.${tab}`)}
        </Text>
      )}
      <Stack gap="sm">
        {items.map((x) =>
          tab === 'sent' ? (
            <SentTenderCard key={x.id} tender={x} href={paths.load(x.loadId)} />
          ) : (
            <ReceivedTenderCard key={x.id} tender={x} href={paths.load(x.loadId)} />
          ),
        )}
        {q.hasNextPage && (
          <Button variant="default" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
            {t('more')}
          </Button>
        )}
      </Stack>
      {dialog && <TenderDialog opened onClose={() => setDialog(false)} />}
    </Container>
  );
}
