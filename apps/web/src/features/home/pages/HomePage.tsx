import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { Alert, Anchor, Box, Button, Center, Container, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { RADIUS_OPTIONS_KM, type BoardCount, type Load } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';
import { useBoardCount } from '../../../components/boardCount';
import { CitySelect } from '../../../components/CitySelect';
import { RadiusSelect } from '../../../components/RadiusSelect';
import { asLang, cityName, formatCount, type Lang } from '../../../components/format';
import { DirArrow } from '../../../components/Lane';
import { LoadCard } from '../../../components/LoadCard';
import { useCitiesByIds } from '../../../components/reference';
import { rolePaths, useRoleBase, useViewer } from '../../../components/useViewer';
import { loadNamespaces } from '../../../i18n';
import { Loading } from '../../../components/Loading';

/**
 * The sample testimonials for shippers, TMS users and carriers (issue 23, spec §1), with their
 * strings (`public` namespace) and quotes (src/content/testimonials.json): a chunk of
 * their own, fetched when the section comes near the viewport, so the first visit's JavaScript and
 * requests stay within the home budget.
 */
const HomeTestimonials = lazy(() => Promise.all([import('../../../components/Testimonials'), loadNamespaces(['public'])]).then(([m]) => m));

/** True once `el` is within 600 px of the viewport (at once where IntersectionObserver is missing). */
function useNear(el: RefObject<HTMLElement | null>) {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    if (!el.current) return;
    const io = new IntersectionObserver(([e]) => e?.isIntersecting && setNear(true), { rootMargin: '600px 0px' });
    io.observe(el.current);
    return () => io.disconnect();
  }, [el, near]);
  return near;
}

/** Popular Saudi lanes (city ids of the shipped reference data): Riyadh, Jeddah, Dammam, Makkah, Madinah, Abha, Tabuk. */
const LANES: [number, number][] = [
  [3, 18],
  [18, 3],
  [13, 3],
  [3, 13],
  [18, 14],
  [13, 18],
  [3, 1],
  [18, 15],
];
const DEFAULT_RADIUS = 200;

/** GET /loads/count for the home page's search (issue 45): useBoardCount with the filters the search sends, once its rows have come. */
function useSearchCount(pickupCityId: number | null, radius: number, dropCityId: number | null, enabled: boolean) {
  return useBoardCount(
    {
      pickupCityId: pickupCityId ?? undefined,
      radius: pickupCityId ? radius : undefined,
      dropCityId: dropCityId ?? undefined,
      dropRadius: dropCityId ? DEFAULT_RADIUS : undefined,
    },
    enabled,
  );
}

/** The results' title: "Counting loads…" until the count comes, then the count ("1,000+" when capped). */
function resultsTitle(t: TFunction, c: BoardCount | undefined, lang: Lang): string {
  if (!c) return t('results.counting');
  return c.totalCapped ? t('results.titleCapped', { n: formatCount(c.total, true, lang) }) : t('results.title', { count: c.total });
}

/** Home (spec §2): hero, search by pickup city and radius, latest active loads, lane links. */
export default function HomePage() {
  const { t, i18n } = useTranslation('home');
  const lang = asLang(i18n.language);
  const navigate = useNavigate();
  const viewer = useViewer();
  const testimonialsRef = useRef<HTMLDivElement>(null);
  const testimonialsNear = useNear(testimonialsRef);
  const base = useRoleBase(viewer.accountType);
  const paths = rolePaths(base);
  const signedIn = viewer.isSignedIn && !!base;
  const [params, setParams] = useSearchParams();
  const pickupCityId = Number(params.get('pickupCityId')) || null;
  const dropCityId = Number(params.get('dropCityId')) || null;
  const radiusParam = Number(params.get('radius'));
  const radius = (RADIUS_OPTIONS_KM as readonly number[]).includes(radiusParam) ? radiusParam : DEFAULT_RADIUS;
  const [city, setCity] = useState<number | null>(pickupCityId);
  const [r, setR] = useState<number>(radius);
  const laneCities = useCitiesByIds(LANES.flat());
  const searching = !!pickupCityId || !!dropCityId;
  const resultsRef = useRef<HTMLDivElement>(null);

  const loads = useQuery({
    queryKey: ['loads', 'home', pickupCityId, radius, dropCityId],
    queryFn: () =>
      unwrap(
        masar.GET('/api/v1/loads', {
          params: {
            query: {
              limit: 8,
              pickupCityId: pickupCityId ?? undefined,
              radius: pickupCityId ? radius : undefined,
              dropCityId: dropCityId ?? undefined,
              dropRadius: dropCityId ? DEFAULT_RADIUS : undefined,
            },
          },
        }),
      ),
  });
  // a search's count comes on its own request after the rows (issue 45)
  const count = useSearchCount(pickupCityId, radius, dropCityId, searching && !!loads.data);

  /** Signed-in users go to their load search; guests see the results here. */
  const search = (q: { pickupCityId: number | null; radius?: number; dropCityId?: number | null }) => {
    const p = new URLSearchParams();
    if (q.pickupCityId) {
      p.set('pickupCityId', String(q.pickupCityId));
      p.set('radius', String(q.radius ?? DEFAULT_RADIUS));
    }
    if (q.dropCityId) {
      p.set('dropCityId', String(q.dropCityId));
      p.set('dropRadius', String(DEFAULT_RADIUS));
    }
    if (signedIn) void navigate(`${paths.search}?${p.toString()}`);
    else {
      setCity(q.pickupCityId);
      setParams(p, { replace: false });
      // A lane link sits below the results: bring them into view.
      resultsRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    }
  };
  const nameOf = (id: number) =>
    cityName(
      laneCities.data?.find((c) => c.id === id),
      lang,
    );
  const hrefOf = (l: Load) => (signedIn ? paths.load(l.id) : '/login');

  return (
    <Box>
      <Box style={{ background: 'linear-gradient(135deg, #0FC474 0%, #00a356 60%, #008d47 100%)' }} c="white" py={{ base: 40, sm: 72 }}>
        <Container size="lg">
          <Stack gap="md">
            <Title order={1} fz={{ base: 30, sm: 46 }} lh={1.15}>
              {t('hero.title')}
            </Title>
            <Text fz={{ base: 'md', sm: 'lg' }} maw={640} opacity={0.95}>
              {t('hero.tagline')}
            </Text>
            {!signedIn && (
              <Group>
                <Button component={Link} to="/signup" variant="white" color="dark">
                  {t('hero.signup')}
                </Button>
                <Button component={Link} to="/login" variant="outline" color="white">
                  {t('hero.login')}
                </Button>
              </Group>
            )}
            <Paper p="md" radius="md" shadow="md" mt="sm" c="var(--mantine-color-text)">
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  search({ pickupCityId: city, radius: r });
                }}
              >
                <Group align="flex-end" gap="sm" wrap="wrap">
                  <CitySelect
                    label={t('search.pickupCity')}
                    value={city}
                    onChange={(id) => setCity(id)}
                    style={{ flex: '1 1 240px' }}
                    data-testid="home-pickup-city"
                  />
                  <RadiusSelect options={RADIUS_OPTIONS_KM} value={r} onChange={setR} w={130} data-testid="home-radius" />
                  <Button type="submit" leftSection={<IconSearch size={16} />} data-testid="home-search-submit">
                    {t('search.submit')}
                  </Button>
                </Group>
              </form>
            </Paper>
          </Stack>
        </Container>
      </Box>

      <Container size="lg" py="xl">
        <Group justify="space-between" mb="md" ref={resultsRef} style={{ scrollMarginTop: 80 }}>
          <Title order={2} fz="h3">
            {searching ? resultsTitle(t, count.data, asLang(i18n.language)) : t('latest.title')}
          </Title>
          {searching && (
            <Anchor
              component="button"
              onClick={() => {
                setCity(null);
                setParams(new URLSearchParams(), { replace: false });
              }}
            >
              {t('results.clear')}
            </Anchor>
          )}
        </Group>
        {loads.isLoading && (
          <Center h={160}>
            <Loading />
          </Center>
        )}
        {loads.isError && <Alert color="masarRed">{loads.error.message}</Alert>}
        {loads.data && loads.data.items.length === 0 && (
          <Text c="dimmed" py="lg" ta="center">
            {searching ? t('results.empty') : t('latest.empty')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} data-testid="home-loads">
          {loads.data?.items.map((l) => (
            <LoadCard key={l.id} load={l} href={hrefOf(l)} />
          ))}
        </SimpleGrid>
        {!signedIn && searching && (loads.data?.total ?? 0) > (loads.data?.items.length ?? 0) && (
          <Center mt="md">
            <Button component={Link} to="/login" variant="light">
              {t('results.signInForMore')}
            </Button>
          </Center>
        )}

        <Title order={2} fz="h3" mt={48} mb="md">
          {t('lanes.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          {LANES.map(([from, to]) => (
            <Paper
              key={`${from}-${to}`}
              withBorder
              p="sm"
              component="button"
              onClick={() => search({ pickupCityId: from, radius: 50, dropCityId: to })}
              style={{ cursor: 'pointer', textAlign: 'start', background: 'var(--mantine-color-body)' }}
              data-testid={`lane-${from}-${to}`}
            >
              <Group gap={6} wrap="nowrap">
                <Text fw={600}>{nameOf(from) || '…'}</Text>
                <DirArrow />
                <Text fw={600}>{nameOf(to) || '…'}</Text>
              </Group>
              <Text size="xs" c="dimmed">
                {t('lanes.cta')}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>

        <Box ref={testimonialsRef} mt={48} mih={testimonialsNear ? undefined : 320}>
          {testimonialsNear && (
            <Suspense fallback={null}>
              <HomeTestimonials variant="home" />
            </Suspense>
          )}
        </Box>
      </Container>
    </Box>
  );
}
