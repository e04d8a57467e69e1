import { useState } from 'react';
import { Paper, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BackhaulList } from '../../../components/BackhaulList';
import { useBackhauls } from '../api/loads';

/** The "Backhauls" section of a shipment I carry (issue 19): open loads near its drop, rows open their details. */
export function BackhaulsPanel({ loadId, hrefOf }: { loadId: string; hrefOf: (id: string) => string }) {
  const { t } = useTranslation('loads');
  const [radius, setRadius] = useState(200);
  const q = useBackhauls(loadId, radius, true);
  return (
    <Paper withBorder p="md" mb="md" data-testid="backhauls-panel">
      <Title order={4} mb="sm">
        {t('backhauls.title')}
      </Title>
      <BackhaulList data={q.data} loading={q.isPending} error={q.error} radius={radius} onRadius={setRadius} hrefOf={hrefOf} />
    </Paper>
  );
}
