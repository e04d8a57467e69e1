import { Box, Group, Text, UnstyledButton } from '@mantine/core';
import {
  IconChartLine,
  IconCirclePlus,
  IconLayoutDashboard,
  IconPackage,
  IconSearch,
  IconSteeringWheel,
  IconTruck,
  IconArrowsExchange,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AccountType } from '@masar/shared';
import { BOTTOM_BAR } from '../menus';

const ICONS = {
  dashboard: IconLayoutDashboard,
  loads: IconPackage,
  post: IconCirclePlus,
  drivers: IconSteeringWheel,
  forecast: IconChartLine,
  search: IconSearch,
  truck: IconTruck,
  offers: IconArrowsExchange,
};

export const BOTTOM_BAR_HEIGHT = 60;

/** Mobile bottom bar (spec §2): five shortcuts of the user's type. */
export function BottomBar({ accountType }: { accountType: AccountType }) {
  const { t } = useTranslation('menu');
  const { pathname } = useLocation();
  return (
    <Box
      component="nav"
      aria-label={t('bottomNav')}
      style={{
        position: 'fixed',
        insetInline: 0,
        bottom: 0,
        height: BOTTOM_BAR_HEIGHT,
        zIndex: 140,
        background: 'var(--mantine-color-body)',
        borderBlockStart: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <Group h="100%" grow gap={0} wrap="nowrap">
        {BOTTOM_BAR[accountType].map((i) => {
          const Icon = ICONS[i.icon];
          const active = pathname === i.to || pathname.startsWith(`${i.to}/`);
          return (
            <UnstyledButton
              key={i.to}
              component={Link}
              to={i.to}
              aria-current={active ? 'page' : undefined}
              title={t(i.key)}
              style={{ textAlign: 'center', color: active ? 'var(--mantine-primary-color-text)' : 'var(--mantine-color-dimmed)' }}
            >
              <Icon size={22} stroke={1.6} style={{ display: 'block', marginInline: 'auto' }} />
              {/* a short label that fits a fifth of a phone's width in both languages; the full name is the tooltip */}
              <Text fz={10} fw={active ? 700 : 500} lh={1.3} truncate="end" px={2}>
                {t(`bar.${i.key}`)}
              </Text>
            </UnstyledButton>
          );
        })}
      </Group>
    </Box>
  );
}
