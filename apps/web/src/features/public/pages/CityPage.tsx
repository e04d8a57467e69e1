import { Anchor, Badge, Container, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { CITY_PAGES, type Load } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';
import { usePageMeta } from '../../../lib/pageMeta';
import { asLang, formatNumber } from '../../../components/format';
import { DirArrow } from '../../../components/Lane';
import NotFoundPage from '../../../components/NotFoundPage';
import { GuestLoads } from '../components/GuestLoads';
import { Lane, parseLaneSlug } from './LanePage';
import { CITY_LOADS_QUERY, CITY_RADIUS_KM } from '../cityLoads';

interface OutboundLane {
  toEn: string;
  toAr: string;
  toCityId: number;
  loads: number;
}

/**
 * Outbound lanes of the loads shown: destination city (last drop) with how many of these loads go
 * there, most first. Counted from the live loads on the page, nothing else.
 */
export function outboundLanes(loads: Load[], cityId: number): OutboundLane[] {
  const by = new Map<string, OutboundLane>();
  for (const l of loads) {
    const drop = l.stops[l.stops.length - 1];
    if (!drop || drop.cityId === cityId) continue;
    const k = String(drop.cityId);
    const lane = by.get(k) ?? { toEn: drop.cityNameEn ?? '', toAr: drop.cityNameAr ?? '', toCityId: drop.cityId, loads: 0 };
    lane.loads++;
    by.set(k, lane);
  }
  return [...by.values()].sort((a, b) => b.loads - a.loads).slice(0, 6);
}

/** Body of a known city: its loads within CITY_RADIUS_KM and their lanes. */
function City({ slug, cityId }: { slug: string; cityId: number }) {
  const { t, i18n } = useTranslation('public');
  const lang = asLang(i18n.language);
  const name = t(`city.names.${slug}`);
  usePageMeta(t('city.title', { city: name }), t(`city.intro.${slug}`));
  const loads = useQuery({
    queryKey: ['loads', 'city', cityId],
    queryFn: () =>
      unwrap(
        masar.GET('/api/v1/loads', {
          params: {
            query: {
              ...CITY_LOADS_QUERY,
              pickupCityId: cityId,
              radius: CITY_RADIUS_KM,
            },
          },
        }),
      ),
  });
  const items = loads.data?.items ?? [];
  const lanes = outboundLanes(items, cityId);
  // a destination with its own city page has a lane page
  const laneTo = (cityId: number) => CITY_PAGES.find((c) => c.cityId === cityId && c.slug !== slug)?.slug;
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('city.title', { city: name })}</Title>
          <Text mt="xs" maw={760}>
            {t(`city.intro.${slug}`)}
          </Text>
        </div>

        <section aria-labelledby="city-lanes">
          <Title order={2} fz="h3" id="city-lanes" mb="xs">
            {t('city.lanesTitle', { city: name })}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('city.lanesNote', { km: formatNumber(CITY_RADIUS_KM, lang) })}
          </Text>
          {loads.isSuccess && lanes.length === 0 && <Text c="dimmed">{t('city.noLanes')}</Text>}
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} data-testid="city-lanes">
            {lanes.map((l) => (
              <Paper key={l.toEn} withBorder p="sm">
                <Group gap={6} wrap="nowrap" justify="space-between">
                  <Group gap={6} wrap="nowrap">
                    <Text fw={600}>{name}</Text>
                    <DirArrow />
                    {laneTo(l.toCityId) ? (
                      <Anchor component={Link} to={`/city/${slug}-to-${laneTo(l.toCityId)}`} fw={600}>
                        {lang === 'ar' ? l.toAr || l.toEn : l.toEn}
                      </Anchor>
                    ) : (
                      <Text fw={600}>{lang === 'ar' ? l.toAr || l.toEn : l.toEn}</Text>
                    )}
                  </Group>
                  <Badge variant="light">{t('city.laneLoads', { count: l.loads, n: formatNumber(l.loads, lang) })}</Badge>
                </Group>
              </Paper>
            ))}
          </SimpleGrid>
        </section>

        <section aria-labelledby="city-loads">
          <Title order={2} fz="h3" id="city-loads" mb="sm">
            {t('city.loadsTitle', { city: name })}
          </Title>
          <GuestLoads id="city" loads={loads} empty={t('city.noLoads', { city: name })} />
        </section>

        <section aria-labelledby="city-others">
          <Title order={2} fz="h4" id="city-others" mb="xs">
            {t('city.otherCities')}
          </Title>
          <Group gap="xs">
            {CITY_PAGES.filter((c) => c.slug !== slug).map((c) => (
              <Anchor key={c.slug} component={Link} to={`/city/${c.slug}`} size="sm">
                {t(`city.names.${c.slug}`)}
              </Anchor>
            ))}
          </Group>
        </section>
      </Stack>
    </Container>
  );
}

/**
 * /city/:slug (issue 8): a landing page per major Saudi city (CITY_PAGES) with its live loads
 * (GET /loads, pickup within CITY_RADIUS_KM, at most 10; guests may search) and the outbound
 * lanes of those loads; `/city/<from>-to-<to>` between two of them is the lane page (LanePage.tsx,
 * issue 23). Unknown slugs are the not-found page.
 */
export default function CityPage() {
  const { slug = '' } = useParams();
  const lane = parseLaneSlug(slug);
  if (lane) return <Lane key={slug} from={lane.from} to={lane.to} />;
  const city = CITY_PAGES.find((c) => c.slug === slug);
  if (!city) return <NotFoundPage />;
  return <City key={city.slug} slug={city.slug} cityId={city.cityId} />;
}
