import { Anchor, Container, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CITY_PAGES, type CitySlug, type Load } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';
import { usePageMeta } from '../../../lib/pageMeta';
import { asLang, formatCount, formatMoney, formatNumber } from '../../../components/format';
import { DirArrow } from '../../../components/Lane';
import { GuestLoads } from '../components/GuestLoads';
import { CITY_LOADS_QUERY, CITY_RADIUS_KM } from '../cityLoads';

/** Mean Earth radius of PostgreSQL's earthdistance, km (the server's lib/geo.ts). */
const EARTH_RADIUS_KM = 6378.168;
const straightKm = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
};
const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The facts of a lane from its open loads (issue 23): road distance and rate per km as the
 * median of the loads posted on it (SAR, km), else the straight-line distance of the two city
 * centres. Nothing is estimated that the board does not show.
 */
export function laneFacts(loads: Load[]) {
  return {
    roadKm: median(loads.map((l) => l.distanceKm)),
    ratePerKmSar: median(loads.map((l) => Number(l.ratePerKmSar))),
    priceSar: median(loads.map((l) => Number(l.priceSar))),
  };
}

/** One lane between two major cities: its facts, its open loads, the way back, the two city pages. */
export function Lane({ from, to }: { from: (typeof CITY_PAGES)[number]; to: (typeof CITY_PAGES)[number] }) {
  const { t, i18n } = useTranslation('public');
  const lang = asLang(i18n.language);
  const name = (s: CitySlug) => t(`city.names.${s}`);
  const title = t('lane.title', { from: name(from.slug), to: name(to.slug) });
  usePageMeta(title, t('lane.intro', { from: name(from.slug), to: name(to.slug) }));
  const loads = useQuery({
    queryKey: ['loads', 'lane', from.cityId, to.cityId],
    queryFn: () =>
      unwrap(
        masar.GET('/api/v1/loads', {
          params: { query: { ...CITY_LOADS_QUERY, pickupCityId: from.cityId, radius: CITY_RADIUS_KM, dropCityId: to.cityId } },
        }),
      ),
  });
  const items = loads.data?.items ?? [];
  const facts = laneFacts(items);
  // the city centres are constants (CITY_PAGES): the build prerenders this fact (issue 23)
  const straight = straightKm(from, to);
  const km = (n: number) => t('lane.km', { km: formatNumber(Math.round(n), lang) });
  const fact = (label: string, value: string, testId: string) => (
    <Paper withBorder p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Paper>
  );
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{title}</Title>
          <Text mt="xs" maw={760}>
            {t('lane.intro', { from: name(from.slug), to: name(to.slug) })}
          </Text>
        </div>
        <section aria-labelledby="lane-facts">
          <Title order={2} fz="h3" id="lane-facts" mb="sm">
            {t('lane.factsTitle')}
          </Title>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            {fact(t('lane.openLoads'), loads.data ? formatCount(loads.data.total ?? 0, loads.data.totalCapped ?? false, lang) : '…', 'lane-open')}
            {facts.roadKm !== null
              ? fact(t('lane.roadDistance'), km(facts.roadKm), 'lane-distance')
              : fact(t('lane.straightDistance'), km(straight), 'lane-distance')}
            {/* live figures: "…" until the loads have come (also in the prerendered page), "—" when there are none */}
            {fact(t('lane.medianPrice'), facts.priceSar !== null ? formatMoney(facts.priceSar, lang) : loads.data ? '—' : '…', 'lane-price')}
            {fact(
              t('lane.medianRate'),
              facts.ratePerKmSar !== null ? formatMoney(facts.ratePerKmSar, lang, { decimals: 2 }) : loads.data ? '—' : '…',
              'lane-rate',
            )}
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="xs">
            {t('lane.factsNote', { km: formatNumber(CITY_RADIUS_KM, lang) })}
          </Text>
        </section>
        <section aria-labelledby="lane-loads">
          <Title order={2} fz="h3" id="lane-loads" mb="sm">
            {t('lane.loadsTitle', { from: name(from.slug), to: name(to.slug) })}
          </Title>
          <GuestLoads id="lane" loads={loads} empty={t('lane.noLoads')} />
        </section>
        <section aria-labelledby="lane-more">
          <Title order={2} fz="h4" id="lane-more" mb="xs">
            {t('lane.more')}
          </Title>
          <Group gap="md">
            <Anchor component={Link} to={`/city/${to.slug}-to-${from.slug}`} data-testid="lane-back">
              <Group gap={4} component="span" style={{ display: 'inline-flex' }}>
                {name(to.slug)} <DirArrow size={14} /> {name(from.slug)}
              </Group>
            </Anchor>
            <Anchor component={Link} to={`/city/${from.slug}`}>
              {t('city.title', { city: name(from.slug) })}
            </Anchor>
            <Anchor component={Link} to={`/city/${to.slug}`}>
              {t('city.title', { city: name(to.slug) })}
            </Anchor>
          </Group>
        </section>
      </Stack>
    </Container>
  );
}

/** `riyadh-to-jeddah` → the two city pages, or null (unknown city, or the same one twice). */
export function parseLaneSlug(slug: string) {
  const m = /^([a-z]+)-to-([a-z]+)$/.exec(slug);
  const from = m && CITY_PAGES.find((c) => c.slug === m[1]);
  const to = m && CITY_PAGES.find((c) => c.slug === m[2]);
  return from && to && from !== to ? { from, to } : null;
}
