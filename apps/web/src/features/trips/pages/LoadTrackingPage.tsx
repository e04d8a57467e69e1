import { Alert, Anchor, Badge, Button, Card, Center, Container, Grid, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { asLang, formatDate, formatNumber } from '../../../components/format';
import { downloadLinked } from '../../../components/transfer';
import { useRoleBase } from '../../../components/useViewer';
import { trackingApi } from '../api/trips';
import TrackMap, { type MapDot } from '../components/TrackMap';
import { Loading } from '../../../components/Loading';
import { StepTime } from '../components/StepTime';

/**
 * A shipment's tracking view, /<role>/loads/:id/track (issue 7): trail polyline, latest
 * position, remaining distance and ETA (straight line at the server's assumed average speed),
 * the trip steps and the proofs (flagged when taken away from their stop).
 */
export default function LoadTrackingPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('trips');
  const lang = asLang(i18n.language);
  const base = useRoleBase();
  const q = useQuery({ queryKey: ['load-tracking', id], queryFn: () => trackingApi.load(id), refetchInterval: 60_000 });
  const d = q.data;
  if (q.isLoading)
    return (
      <Center py="xl">
        <Loading />
      </Center>
    );
  if (q.error || !d)
    return (
      <Container py="md">
        <Alert color="red">{q.error?.message}</Alert>
      </Container>
    );
  const dots: MapDot[] = [
    { key: 'p', lat: d.pickup.lat, lng: d.pickup.lng, status: d.status, label: t('track.pickup') },
    { key: 'd', lat: d.drop.lat, lng: d.drop.lng, status: d.status, label: t('track.drop') },
  ];
  if (d.latest) dots.push({ key: 'truck', lat: d.latest.lat, lng: d.latest.lng, status: d.status, label: t('track.truck'), truck: true });
  return (
    <Container size="xl" py="md" data-testid="load-tracking-page">
      <Stack>
        <Group justify="space-between">
          <Group>
            <Title order={2}>{t('track.title')}</Title>
            <Text fw={600} dir="ltr">
              {d.referenceId}
            </Text>
            <StatusBadge status={d.status} />
          </Group>
          <Anchor component={Link} to={`${base}/loads/${d.loadId}`}>
            {t('track.back')}
          </Anchor>
        </Group>
        <Grid>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <TrackMap
              dots={dots}
              lanes={[{ key: 'lane', from: [d.pickup.lat, d.pickup.lng], to: [d.drop.lat, d.drop.lng], status: d.status }]}
              trail={d.trail.map((p) => [p.lat, p.lng])}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="sm">
              <Card withBorder data-testid="tracking-eta">
                {d.deliveredAt ? (
                  <Text fw={600}>{t('track.delivered', { time: formatDate(d.deliveredAt, lang) })}</Text>
                ) : (
                  <Stack gap={4}>
                    {d.heading && <Badge variant="light">{t(`track.heading_${d.heading}`)}</Badge>}
                    <Group justify="space-between">
                      <Text c="dimmed">{t('track.remaining')}</Text>
                      <Text fw={600}>{d.remainingKm !== null ? t('track.remainingKm', { km: formatNumber(d.remainingKm, lang, 1) }) : '—'}</Text>
                    </Group>
                    <Group justify="space-between">
                      <Text c="dimmed">{t('track.eta')}</Text>
                      <Text fw={600}>{d.eta ? formatDate(d.eta, lang) : '—'}</Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {d.latest ? t('track.lastSeen', { time: formatDate(d.latest.at, lang) }) : t('track.noPosition')}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('track.etaNote', { speed: d.averageSpeedKmh })}
                    </Text>
                  </Stack>
                )}
              </Card>
              <Title order={4}>{t('track.proofs')}</Title>
              {d.proofs.map((p) => (
                <Card key={p.id} withBorder padding="sm" data-testid="tracking-proof" data-flagged={p.flagged}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600}>{t(`track.proofOf_${p.stop}`)}</Text>
                    <Button variant="subtle" size="compact-sm" onClick={() => void downloadLinked(p.url, `${p.stop}-proof`)}>
                      {t('track.download')}
                    </Button>
                  </Group>
                  <StepTime at={p.at} recordedAt={p.recordedAt} lang={lang} />
                  {p.flagged ? (
                    <Badge color="masarRed" variant="light">
                      {t('track.flagged', { km: formatNumber(p.distanceKm ?? 0, lang, 1) })}
                    </Badge>
                  ) : p.distanceKm !== null ? (
                    <Badge color="teal" variant="light">
                      {t('track.inPlace')}
                    </Badge>
                  ) : null}
                </Card>
              ))}
              <Title order={4}>{t('track.steps')}</Title>
              <Table>
                <Table.Tbody>
                  {d.steps.map((s) => (
                    <Table.Tr key={s.step}>
                      <Table.Td>{t(`step.${s.step}`)}</Table.Td>
                      <Table.Td>
                        <StepTime at={s.at} recordedAt={s.recordedAt} lang={lang} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
