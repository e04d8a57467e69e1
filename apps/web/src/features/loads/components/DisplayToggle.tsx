import { SegmentedControl } from '@mantine/core';
import { IconLayoutGrid, IconList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DisplayMode } from '../../../components/LoadCard';

/** Grid / line display switch of listings (spec §2 display modes). */
export function DisplayToggle({ value, onChange }: { value: DisplayMode; onChange: (v: DisplayMode) => void }) {
  const { t } = useTranslation('loads');
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange(v === 'line' ? 'line' : 'grid')}
      data={[
        { value: 'grid', label: <IconLayoutGrid size={16} aria-label={t('display.grid')} /> },
        { value: 'line', label: <IconList size={16} aria-label={t('display.line')} /> },
      ]}
      data-testid="display-toggle"
    />
  );
}
