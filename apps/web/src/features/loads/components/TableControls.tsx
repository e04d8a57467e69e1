import { Group, SegmentedControl, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { asLang, formatNumber } from '../../../components/format';
import { PAGE_SIZES, type Density, type PageSize } from '../utils/searchParams';

/**
 * The results table's density (Comfortable / Compact) and page size (25 / 50 / 100) — issue 23.
 * Strings: `shipments:table.*` (the load search loads that page namespace).
 */
export function TableControls({
  density,
  pageSize,
  onDensity,
  onPageSize,
  showDensity = true,
}: {
  density: Density;
  pageSize: PageSize;
  onDensity: (d: Density) => void;
  onPageSize: (n: PageSize) => void;
  /** Phones show cards: no density to choose. */
  showDensity?: boolean;
}) {
  const { t, i18n } = useTranslation('shipments');
  const lang = asLang(i18n.language);
  return (
    <Group gap="sm" wrap="nowrap">
      {showDensity && (
        <SegmentedControl
          size="xs"
          value={density}
          onChange={(v) => onDensity(v === 'compact' ? 'compact' : 'comfortable')}
          data={[
            { value: 'comfortable', label: t('table.comfortable') },
            { value: 'compact', label: t('table.compact') },
          ]}
          aria-label={t('table.density')}
          data-testid="density-toggle"
        />
      )}
      <Select
        size="xs"
        w={84}
        aria-label={t('table.pageSize')}
        data={PAGE_SIZES.map((n) => ({ value: String(n), label: formatNumber(n, lang) }))}
        value={String(pageSize)}
        onChange={(v) => {
          const n = Number(v);
          if ((PAGE_SIZES as readonly number[]).includes(n)) onPageSize(n as PageSize);
        }}
        allowDeselect={false}
        data-testid="page-size"
      />
    </Group>
  );
}
