import { Group, Paper, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconMinus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Statistic } from '@masar/shared';
import { asLang, formatMoney, formatNumber } from '../../../components/format';

/** How a statistic reads: a count, a decimal (offers per load) or SAR. */
export type StatKind = 'count' | 'decimal' | 'sar';

/** A figure in the reader's language and digit system. */
export function formatStat(value: number, kind: StatKind, lang: 'en' | 'ar'): string {
  if (kind === 'sar') return formatMoney(value.toFixed(2).replace(/\.00$/, ''), lang);
  return formatNumber(value, lang, kind === 'decimal' ? 1 : 0);
}

/**
 * One statistic of the period (spec §2 statistic keys): the value, and its change against the
 * previous equal period — an arrow up (green) or down (red), the percentage and the previous value;
 * "no figures for the previous period" when it was 0.
 */
export function StatCard({ label, stat, kind, testId }: { label: string; stat: Statistic; kind: StatKind; testId?: string }) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = asLang(i18n.language);
  const pct = stat.changePct;
  const up = pct !== null && pct > 0;
  const down = pct !== null && pct < 0;
  const Icon = up ? IconArrowUpRight : down ? IconArrowDownRight : IconMinus;
  const color = up ? 'teal' : down ? 'red' : 'dimmed';
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={26} fw={700} mt={4} data-testid={testId ? `${testId}-value` : undefined}>
        {formatStat(stat.value, kind, lang)}
      </Text>
      <Group gap={4} mt={4} wrap="nowrap">
        <Icon size={16} color={`var(--mantine-color-${color === 'dimmed' ? 'gray-6' : `${color}-6`})`} aria-hidden />
        <Text size="xs" c={color}>
          {pct === null ? t('change.none') : t(up ? 'change.up' : down ? 'change.down' : 'change.same', { pct: formatNumber(Math.abs(pct), lang, 1) })}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('change.previous', { value: formatStat(stat.previous, kind, lang) })}
      </Text>
    </Paper>
  );
}
