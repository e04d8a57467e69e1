import { SegmentedControl } from '@mantine/core';
import { IconLayoutGrid, IconList, IconTable } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DisplayMode } from '../../../components/LoadCard';

/** A listing's display: the spec's grid and line modes, and the results table (issue 23) where offered. */
export type ListingDisplay = DisplayMode | 'table';

/** Grid / line (/ table with `withTable`) display switch of listings (spec §2 display modes). */
export function DisplayToggle<T extends ListingDisplay = DisplayMode>({
  value,
  onChange,
  withTable,
}: {
  value: T;
  onChange: (v: T) => void;
  withTable?: boolean;
}) {
  const { t } = useTranslation('loads');
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange((v === 'line' || (withTable && v === 'table') ? v : 'grid') as T)}
      data={[
        { value: 'grid', label: <IconLayoutGrid size={16} aria-label={t('display.grid')} /> },
        { value: 'line', label: <IconList size={16} aria-label={t('display.line')} /> },
        ...(withTable ? [{ value: 'table', label: <IconTable size={16} aria-label={t('display.table')} /> }] : []),
      ]}
      data-testid="display-toggle"
    />
  );
}
