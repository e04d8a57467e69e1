import { useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Container, Group, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconBell, IconChartAreaLine } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RATE_KINDS, type RateForecast, type RateKind } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { asLang, formatNumber } from '../../../components/format';
import { useEquipmentTypes } from '../../../components/reference';
import { useRoleBase, useViewer } from '../../../components/useViewer';
import { oneOf } from '../../../lib/api';
import { useRateForecast, type LaneQuery } from '../api/forecast';
import { ForecastChart, formatDay } from '../components/ForecastChart';
import { Loading } from '../../../components/Loading';

/** Spec §2 /rate-forecast: the three loading texts, shown in this order while the forecast is made. */
export const LOADING_STEPS = ['collecting', 'analyzing', 'onTheWay'] as const;
/** How long each loading text stays, ms (the answer shows once the last one has been read). */
export const LOADING_STEP_MS = 700;

const laneOf = (p: URLSearchParams): LaneQuery | null => {
  const origin = Number(p.get('origin'));
  const destination = Number(p.get('destination'));
  if (!(origin > 0) || !(destination > 0)) return null;
  return { origin, destination, equipment: p.get('equipment') || null, kind: oneOf(RATE_KINDS, p.get('kind')) ?? 'spot' };
};

/** The three loading texts in sequence: the step shown, or null once all were shown. Restarts when `key` changes. */
function useLoadingSteps(key: string | null) {
  const [step, setStep] = useState<number | null>(null);
  useEffect(() => {
    if (!key) return;
    setStep(0);
    const timers = LOADING_STEPS.map((_, i) => setTimeout(() => setStep(i + 1 < LOADING_STEPS.length ? i + 1 : null), (i + 1) * LOADING_STEP_MS));
    return () => timers.forEach(clearTimeout);
  }, [key]);
  return step;
}

/** "Our forecasts on this lane were off by 6 % on average over the last 12 weeks; 80 % of actual rates fell inside the band." */
function MeasuredError({ f }: { f: RateForecast }) {
  const { t, i18n } = useTranslation('forecast');
  const lang = asLang(i18n.language);
  const m = f.measuredError;
  if (!m)
    return (
      <Text size="sm" c="dimmed">
        {t('measured.none')}
      </Text>
    );
  return (
    <Text size="sm" data-testid="forecast-measured">
      {t(m.scope === 'lane' ? 'measured.lane' : 'measured.national', {
        count: m.backtestWeeks,
        pct: formatNumber(m.maePct, lang, 1),
        coverage: formatNumber(m.bandCoverage * 100, lang),
        naive: formatNumber(m.naiveMaePct, lang, 1),
      })}
    </Text>
  );
}

function WeeklyTable({ f }: { f: RateForecast }) {
  const { t, i18n } = useTranslation('forecast');
  const lang = asLang(i18n.language);
  const sar = (v: number) => formatNumber(v, lang);
  return (
    <Table striped data-testid="forecast-weekly">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('table.week')}</Table.Th>
          <Table.Th>{t('table.forecast')}</Table.Th>
          <Table.Th>{t('table.band')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {f.weekly.map((w) => (
          <Table.Tr key={w.weekStart}>
            <Table.Td>{formatDay(w.weekStart, lang, true)}</Table.Td>
            <Table.Td>{sar(w.value)}</Table.Td>
            <Table.Td>{t('table.range', { low: sar(w.low), high: sar(w.high) })}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * /rate-forecast (public) and /shippers|/carriers|/brokers/rate-forecast (issue 20; spec §2): pick
 * a lane (origin and destination city, equipment, spot or contract); while the forecast is made the
 * three texts of spec §2 show in sequence; then the last 90 days and the next 8 days with the
 * band, the next 12 weeks, a table view of the chart and the model's measured error on the lane.
 * The lane lives in the URL (?origin=&destination=&equipment=&kind=), so a forecast can be linked.
 */
export default function RateForecastPage() {
  const { t, i18n } = useTranslation('forecast');
  const lang = asLang(i18n.language);
  const [params, setParams] = useSearchParams();
  const lane = laneOf(params);
  const base = useRoleBase();
  const { isSignedIn } = useViewer();
  const equipment = useEquipmentTypes();
  const [draft, setDraft] = useState<{ origin: number | null; destination: number | null; equipment: string | null; kind: RateKind }>({
    origin: lane?.origin ?? null,
    destination: lane?.destination ?? null,
    equipment: lane?.equipment ?? null,
    kind: lane?.kind ?? 'spot',
  });
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const q = useRateForecast(lane);
  const laneKey = lane ? `${lane.origin}-${lane.destination}-${lane.equipment ?? ''}-${lane.kind}` : null;
  const step = useLoadingSteps(laneKey);
  const loading = lane != null && (step != null || q.isPending || q.isPlaceholderData);
  const f = q.data;

  const submit = () => {
    if (!draft.origin || !draft.destination) return;
    const next: Record<string, string> = { origin: String(draft.origin), destination: String(draft.destination), kind: draft.kind };
    if (draft.equipment) next.equipment = draft.equipment;
    setParams(next);
  };

  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <div>
          <Title order={2}>{t('title')}</Title>
          <Text c="dimmed">{t('subtitle')}</Text>
        </div>
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
              <CitySelect
                label={t('field.origin')}
                value={draft.origin}
                onChange={(origin) => setDraft((d) => ({ ...d, origin }))}
                required
                data-testid="forecast-origin"
              />
              <CitySelect
                label={t('field.destination')}
                value={draft.destination}
                onChange={(destination) => setDraft((d) => ({ ...d, destination }))}
                required
                data-testid="forecast-destination"
              />
              <Select
                label={t('field.equipment')}
                placeholder={t('field.anyEquipment')}
                data={(equipment.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }))}
                value={draft.equipment}
                onChange={(v) => setDraft((d) => ({ ...d, equipment: v }))}
                clearable
                searchable
                data-testid="forecast-equipment"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('field.kind')}
                </Text>
                <SegmentedControl
                  value={draft.kind}
                  onChange={(v) => setDraft((d) => ({ ...d, kind: v }))}
                  data={RATE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
                  data-testid="forecast-kind"
                />
              </Stack>
            </SimpleGrid>
            <Group justify="flex-end" mt="sm">
              <Button type="submit" leftSection={<IconChartAreaLine size={16} />} disabled={!draft.origin || !draft.destination} data-testid="forecast-submit">
                {t('submit')}
              </Button>
            </Group>
          </form>
        </Card>

        {!lane && (
          <Text c="dimmed" ta="center" py="xl" data-testid="forecast-pick">
            {t('pick')}
          </Text>
        )}

        {loading && (
          <Card withBorder py="xl" data-testid="forecast-loading" aria-live="polite">
            <Stack align="center" gap="sm">
              <Loading />
              <Text fw={700} tt="uppercase" data-testid="forecast-loading-text">
                {t(`loading.${LOADING_STEPS[step ?? LOADING_STEPS.length - 1]}`)}
              </Text>
            </Stack>
          </Card>
        )}

        {!loading && q.isError && (
          <Alert color="masarRed" data-testid="forecast-error">
            {q.error.message}
          </Alert>
        )}

        {!loading && f && (
          <Card withBorder data-testid="forecast-result">
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap">
                <Title order={3} data-testid="forecast-lane">
                  {t('lane', {
                    origin: lang === 'ar' ? f.origin.nameAr : f.origin.nameEn,
                    destination: lang === 'ar' ? f.destination.nameAr : f.destination.nameEn,
                  })}
                </Title>
                <Badge variant="light" data-testid="forecast-model">
                  {t(`model.${f.model}`)}
                </Badge>
              </Group>
              {f.model === 'not_enough_data' ? (
                <Alert color="yellow" data-testid="forecast-not-enough">
                  {t('notEnough')}
                </Alert>
              ) : (
                <>
                  <Text size="sm" c="dimmed">
                    {t('unit', { asOf: formatDay(f.asOf, lang, true) })}
                  </Text>
                  <MeasuredError f={f} />
                  <SegmentedControl
                    value={view}
                    onChange={(v) => setView(v === 'table' ? 'table' : 'chart')}
                    data={[
                      { value: 'chart', label: t('view.chart') },
                      { value: 'table', label: t('view.table') },
                    ]}
                    w="fit-content"
                    data-testid="forecast-view"
                  />
                  <ForecastChart forecast={f} view={view} />
                  <Title order={4}>{t('weeklyTitle')}</Title>
                  <WeeklyTable f={f} />
                </>
              )}
              {isSignedIn && base && (
                <Anchor component={Link} to={`${base}/rate-change-alerts?${params.toString()}`} data-testid="forecast-alert-link">
                  <Group gap={4} component="span">
                    <IconBell size={16} />
                    {t('alertLink')}
                  </Group>
                </Anchor>
              )}
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
