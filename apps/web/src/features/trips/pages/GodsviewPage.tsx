import { Alert, Anchor, Badge, Card, Center, Container, Grid, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { isolate } from '../../../components/bidi';
import { asLang, formatDate, formatNumber } from '../../../components/format';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { trackingApi } from '../api/trips';
import TrackMap, { STATUS_COLOR, type MapDot } from '../components/TrackMap';
import { Loading } from '../../../components/Loading';

/**
 * /godsview (spec §2 "track shipments"; issue 7): the user's running shipments (as shipper or
 * awarded carrier) and vehicles on a map, coloured by status, with a list; each shipment opens
 * its tracking view.
 */
export default function GodsviewPage() {
  const { t, i18n } = useTranslation('trips');
  const lang = asLang(i18n.language);
  const base = useRoleBase();
  const q = useQuery({ queryKey: ['godsview'], queryFn: trackingApi.overview, refetchInterval: 60_000 });
  const data = q.data;
  const trackHref = (id: string) => `${base}/loads/${id}/track`;

  const dots: MapDot[] = [];
  for (const s of data?.shipments ?? []) {
    dots.push({ key: `${s.loadId}:p`, lat: s.pickup.lat, lng: s.pickup.lng, status: s.status, label: `${s.referenceId} · ${t('track.pickup')}` });
    dots.push({ key: `${s.loadId}:d`, lat: s.drop.lat, lng: s.drop.lng, status: s.status, label: `${s.referenceId} · ${t('track.drop')}` });
  }
  const shown = new Set<string>();
  for (const s of data?.shipments ?? [])
    if (s.latest && s.vehicleId) {
      shown.add(s.vehicleId);
      dots.push({
        key: `truck:${s.vehicleId}`,
        lat: s.latest.lat,
        lng: s.latest.lng,
        status: s.status,
        truck: true,
        label: `${t('track.truck')} · ${s.referenceId}`,
        popup: (
          <Anchor component={Link} to={trackHref(s.loadId)} size="sm">
            {t('track.open')} {s.referenceId}
          </Anchor>
        ),
      });
    }
  for (const v of data?.vehicles ?? [])
    if (v.latest && !shown.has(v.vehicleId))
      dots.push({ key: `truck:${v.vehicleId}`, lat: v.latest.lat, lng: v.latest.lng, status: 'vehicle', truck: true, label: v.plate });
  const lanes = (data?.shipments ?? []).map((s) => ({
    key: s.loadId,
    from: [s.pickup.lat, s.pickup.lng] as [number, number],
    to: [s.drop.lat, s.drop.lng] as [number, number],
    status: s.status,
  }));

  return (
    <Container size="xl" py="md" data-testid="godsview-page">
      <Stack>
        <Title order={2}>{t('track.godsview')}</Title>
        <Group gap="xs">
          {Object.keys(STATUS_COLOR)
            .filter((k) => k !== 'completed')
            .map((k) => (
              <Badge key={k} color={STATUS_COLOR[k]} variant="dot">
                {k === 'vehicle' ? t('track.vehicles') : <StatusBadgeText status={k} />}
              </Badge>
            ))}
        </Group>
        {q.isLoading ? (
          <Center>
            <Loading />
          </Center>
        ) : q.error ? (
          <Alert color="red">{q.error.message}</Alert>
        ) : (
          <Grid>
            <Grid.Col span={{ base: 12, md: 8 }}>
              <TrackMap dots={dots} lanes={lanes} height={520} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Tabs defaultValue="shipments" keepMounted={false}>
                <Tabs.List grow>
                  <Tabs.Tab value="shipments" data-testid="godsview-tab-shipments">
                    {t('track.shipments')} ({formatNumber(data?.shipments.length ?? 0, lang)})
                  </Tabs.Tab>
                  <Tabs.Tab value="vehicles" data-testid="godsview-tab-vehicles">
                    {t('track.vehicles')} ({formatNumber(data?.vehicles.length ?? 0, lang)})
                  </Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="shipments" pt="sm">
                  <Stack gap="sm">
                    {data?.shipments.length ? (
                      data.shipments.map((s) => (
                        <Card key={s.loadId} withBorder padding="sm" data-testid="godsview-shipment">
                          <Group justify="space-between" wrap="nowrap">
                            <Anchor component={Link} to={trackHref(s.loadId)} fw={600} dir="ltr">
                              {s.referenceId}
                            </Anchor>
                            <StatusBadge status={s.status} />
                          </Group>
                          <Text size="sm" fw={500} data-testid="godsview-lane">
                            {isolate(lang === 'ar' ? s.lane.fromAr : s.lane.fromEn)} {lang === 'ar' ? '←' : '→'}{' '}
                            {isolate(lang === 'ar' ? s.lane.toAr : s.lane.toEn)}
                          </Text>
                          <Text size="xs" data-testid="godsview-assignment">
                            {s.driverName ? isolate(s.driverName) : t('track.noDriver')}
                            {s.plate && (
                              <>
                                {' · '}
                                <bdi dir="ltr" style={{ letterSpacing: '0.08em' }}>
                                  {s.plate}
                                </bdi>
                              </>
                            )}
                          </Text>
                          {s.eta && (
                            <Text size="xs" fw={500} data-testid="godsview-eta">
                              {t(`track.heading_${s.heading ?? 'drop'}`)} · {t('track.eta')} {formatDate(s.eta, lang)}
                            </Text>
                          )}
                          <Text size="xs" c="dimmed">
                            {s.latest
                              ? `${t('track.lastSeen', { time: formatDate(s.latest.at, lang) })}${s.latest.speed !== null ? ` · ${t('track.speed', { speed: formatNumber(s.latest.speed, lang) })}` : ''}`
                              : t('track.noPosition')}
                          </Text>
                          {s.lastStep && <Text size="xs">{t('track.lastStep', { step: t(`step.${s.lastStep}`) })}</Text>}
                        </Card>
                      ))
                    ) : (
                      <Group gap="xs">
                        <Text c="dimmed">{t('track.noShipments')}</Text>
                        <Anchor component={Link} to={rolePaths(base).myLoads}>
                          {t('track.openMyLoads')}
                        </Anchor>
                      </Group>
                    )}
                  </Stack>
                </Tabs.Panel>
                <Tabs.Panel value="vehicles" pt="sm">
                  <Stack gap="xs">
                    {data?.vehicles.length ? (
                      data.vehicles.map((v) => (
                        <Card key={v.vehicleId} withBorder padding="xs" data-testid="godsview-vehicle">
                          <Group justify="space-between" wrap="nowrap">
                            <Text size="sm" fw={600}>
                              <bdi dir="ltr" style={{ letterSpacing: '0.08em' }}>
                                {v.plate}
                              </bdi>
                            </Text>
                            <Text size="xs" c="dimmed">
                              {v.latest ? formatDate(v.latest.at, lang) : t('track.noPosition')}
                            </Text>
                          </Group>
                          <Text size="xs">
                            {v.loadId ? (
                              <>
                                <Anchor component={Link} to={trackHref(v.loadId)} size="xs" dir="ltr">
                                  {v.referenceId}
                                </Anchor>
                                {v.driverName && <> · {isolate(v.driverName)}</>}
                              </>
                            ) : (
                              <Text span c="dimmed" size="xs">
                                {t('track.idle')}
                              </Text>
                            )}
                          </Text>
                        </Card>
                      ))
                    ) : (
                      <Group gap="xs">
                        <Text c="dimmed">{t('track.noVehicles')}</Text>
                        <Anchor component={Link} to={`${base}/fleet-management`}>
                          {t('track.addVehicle')}
                        </Anchor>
                      </Group>
                    )}
                  </Stack>
                </Tabs.Panel>
              </Tabs>
            </Grid.Col>
          </Grid>
        )}
      </Stack>
    </Container>
  );
}

function StatusBadgeText({ status }: { status: string }) {
  const { t } = useTranslation('loads');
  return <>{t(`loadStatus.${status}`, { defaultValue: status })}</>;
}
