import { Alert, Center, Group, Loader, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconArrowNarrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SEARCH_PICKUP_RADIUS_KM, type BackhaulsResponse } from '@masar/shared';
import { asLang, formatDateCompact, formatMoney, formatNumber } from './format';
import { RadiusSelect } from './RadiusSelect';

/**
 * Backhauls (issue 19; spec §2): open loads picked up near where a shipment or a truck ends,
 * ranked by deadhead then rate per km (the server's order). Each row opens the load's details
 * (`hrefOf`). The radius is one of the search radii. Strings: namespace 'loads' (backhauls.*).
 */
export function BackhaulList(props: {
  data: BackhaulsResponse | undefined;
  loading: boolean;
  error: Error | null;
  radius: number;
  onRadius: (km: number) => void;
  hrefOf: (loadId: string) => string;
}) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const { data } = props;
  const name = (en: string, ar: string) => (lang === 'ar' ? ar : en);
  return (
    <Stack gap="sm" data-testid="backhauls">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Text size="sm" c="dimmed">
          {data
            ? t('backhauls.from', {
                city: name(data.from.cityEn, data.from.cityAr),
                date: formatDateCompact(data.from.after, lang),
                days: formatNumber(Math.round((Date.parse(data.from.until) - Date.parse(data.from.after)) / 86_400_000), lang),
              })
            : t('backhauls.explain')}
        </Text>
        <RadiusSelect options={SEARCH_PICKUP_RADIUS_KM} value={props.radius} onChange={props.onRadius} w={140} size="xs" />
      </Group>
      {props.loading && (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      )}
      {props.error && <Alert color="masarRed">{props.error.message}</Alert>}
      {data && data.items.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="backhauls-empty">
          {t('backhauls.none')}
        </Text>
      )}
      {data?.items.map((l) => (
        <UnstyledButton key={l.id} component={Link} to={props.hrefOf(l.id)} data-testid="backhaul-row">
          <Paper withBorder p="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap={6} wrap="nowrap">
                <Text fw={600} size="sm">
                  {name(l.pickupCityEn, l.pickupCityAr)}
                </Text>
                <IconArrowNarrowRight size={16} style={{ transform: lang === 'ar' ? 'scaleX(-1)' : undefined }} />
                <Text fw={600} size="sm">
                  {name(l.dropCityEn, l.dropCityAr)}
                </Text>
              </Group>
              <Text size="sm" fw={600}>
                {formatMoney(l.priceSar, lang)}
              </Text>
            </Group>
            <Group gap="md" wrap="wrap" mt={4}>
              <Text size="xs" c="dimmed">
                {formatDateCompact(l.pickupAt, lang)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('backhauls.deadhead', { km: formatNumber(l.deadheadKm, lang, 1) })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('backhauls.ratePerKm', { rate: formatMoney(l.ratePerKmSar, lang) })}
              </Text>
              <Text size="xs" c="dimmed">
                {l.shipperCompany}
              </Text>
            </Group>
          </Paper>
        </UnstyledButton>
      ))}
    </Stack>
  );
}
