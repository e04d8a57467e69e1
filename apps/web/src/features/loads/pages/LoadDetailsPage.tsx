import { Alert, Anchor, Badge, Button, Center, Container, Grid, Group, Paper, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { IconUsersGroup } from '@tabler/icons-react';
import { ACTIVE_LOAD_STATUSES, EDITABLE_LOAD_STATUSES, loadPriceOf, STOP_TYPE, type Load } from '@masar/shared';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { asLang, formatMoney, formatNumber } from '../../../components/format';
import { LaneRateHint } from '../../../components/LaneRateHint';
import { DirArrow, Lane, laneOf } from '../../../components/Lane';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { DateText } from '../../../components/Money';
import { refName, useEquipmentTypes, useGoodsTypes } from '../../../components/reference';
import { StopTimeline } from '../../../components/StopTimeline';
import { rolePaths, useRoleBase, useViewer } from '../../../components/useViewer';
import { useLoad } from '../api/loads';
import { AudienceModal, BookmarkButton, LoadOptionsMenu } from '../components/LoadOptionsMenu';
import { AssignmentPanel } from '../components/AssignmentPanel';
import { BackhaulsPanel } from '../components/BackhaulsPanel';
import { LoadTimeline } from '../components/LoadTimeline';
import { BookNowButton } from '../components/BookNow';
import { LoadBadges } from '../components/LoadBadges';
import { PartyPanels } from '../components/PaymentProtection';
import { Slot } from '../../../components/slots';
import { usePageTitle } from '../../../lib/pageTitle';
import { Loading } from '../../../components/Loading';

function Stat({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <Stack gap={0} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} component="div">
        {value}
      </Text>
    </Stack>
  );
}

/** /{role}/loads/:id — the load, and bidding (non-owners) or the offers on it (owner). */
export default function LoadDetailsPage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const base = useRoleBase();
  const paths = rolePaths(base);
  const viewer = useViewer();
  const q = useLoad(id);
  const eq = useEquipmentTypes();
  const goods = useGoodsTypes();
  const [audienceOpen, setAudienceOpen] = useState(false);
  // the tab: "Riyadh → Jeddah · LD-001305 · Masar" / "الرياض ← جدة · LD-001305 · مسار" (issue 23)
  const tabLane = q.data ? laneOf(q.data) : null;
  usePageTitle(
    [tabLane && (lang === 'ar' ? `${tabLane.fromAr} ← ${tabLane.toAr}` : `${tabLane.fromEn} → ${tabLane.toEn}`), q.data?.referenceId],
    t('common:appName'),
  );

  if (q.isLoading)
    return (
      <Center h="50vh">
        <Loading />
      </Center>
    );
  if (q.isError || !q.data)
    return (
      <Container size="md" py="xl">
        <Alert color="masarRed" title={t('details.notFound')}>
          {q.error?.message}
        </Alert>
        <Anchor component={Link} to={paths.search} mt="md" display="inline-block">
          {t('details.backToSearch')}
        </Anchor>
      </Container>
    );

  const load = q.data;
  const isOwner = load.isMine ?? (viewer.profile ? viewer.profile.id === load.shipperId : false);
  const canBid = !isOwner && (base === '/carriers' || base === '/brokers');
  const bookedByMe = !!viewer.profile && load.carrierId === viewer.profile.id;
  // once booked: the agreed price (e.g. after a counter offer) with its rate per km; the posted one shown as "posted" (issue 22)
  const price = loadPriceOf(load);
  const km = (n: number) => t('unit.km', { value: formatNumber(n, lang) });

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Stack gap={4}>
          <Group gap="sm">
            <Text ff="monospace" c="dimmed" data-testid="load-ref">
              {load.referenceId}
            </Text>
            <StatusBadge status={load.status} />
            <Badge variant="outline">{t(`loadType.${load.loadType}`)}</Badge>
            <LoadBadges load={load} bookNow={load.status === 'posted'} />
          </Group>
          <VisuallyHidden>
            <h1>
              {t('details.title', {
                ref: load.referenceId,
                from: lang === 'ar' ? laneOf(load).fromAr : laneOf(load).fromEn,
                to: lang === 'ar' ? laneOf(load).toAr : laneOf(load).toEn,
              })}
            </h1>
          </VisuallyHidden>
          <Lane lane={laneOf(load)} size="xl" extraStops={Math.max(0, load.stops.length - 2)} />
        </Stack>
        <Group gap="xs">
          {isOwner && paths.canPost && EDITABLE_LOAD_STATUSES.includes(load.status) && (
            <Button variant="light" leftSection={<IconUsersGroup size={16} />} onClick={() => setAudienceOpen(true)} data-testid="change-audience">
              {t('option.audience')}
            </Button>
          )}
          {viewer.profile && <BookmarkButton load={load} />}
          {load.options.length > 0 && <LoadOptionsMenu load={load} />}
        </Group>
      </Group>
      {audienceOpen && <AudienceModal load={load} onClose={() => setAudienceOpen(false)} />}

      {isOwner && load.repostFlagged && (
        <Alert color="masarRed" variant="light" mb="md" title={t('repost.title')} data-testid="repost-flag">
          {t('repost.text')}
        </Alert>
      )}

      {ACTIVE_LOAD_STATUSES.includes(load.status) && (
        <Alert color="blue" mb="md" data-testid="assigned-banner">
          {bookedByMe
            ? t('details.bookedByYou', { price: formatMoney(price.priceSar, lang) })
            : t('details.assigned', { price: formatMoney(price.priceSar, lang) })}
        </Alert>
      )}

      {(isOwner || bookedByMe) && (ACTIVE_LOAD_STATUSES.includes(load.status) || load.status === 'completed') && (
        <AssignmentPanel load={load} isCarrier={bookedByMe} fleetPath={`${base}/fleet-management`} />
      )}
      {(isOwner || bookedByMe) &&
        (load.status === 'assigned' || load.status === 'pending_bayan' || load.status === 'completed' || load.status === 'cancelled') && (
          <Slot name="BayanPanel" loadId={load.id} options={load.options} delivered={load.deliveredAt != null} onChanged={() => void q.refetch()} />
        )}
      {(isOwner || bookedByMe) && <LoadTimeline loadId={load.id} />}
      {(isOwner || bookedByMe) && (load.status === 'assigned' || load.status === 'pending_bayan' || load.status === 'completed') && (
        <Group gap="md" mb="md">
          <Anchor component={Link} to={`${base}/loads/${load.id}/track`} data-testid="load-track-link">
            {t('details.track')}
          </Anchor>
          {load.options.includes('payment_received') && (
            <Slot name="PaymentReceivedButton" loadId={load.id} amountSar={price.priceSar} onDone={() => void q.refetch()} />
          )}
        </Group>
      )}

      {(isOwner || bookedByMe) && !!load.carrierId && (ACTIVE_LOAD_STATUSES.includes(load.status) || load.status === 'completed') && (
        <Slot name="CounterpartContactCard" loadId={load.id} />
      )}
      {isOwner && !!load.carrierId && (
        <Group mb="md">
          <Slot name="MessageButton" loadId={load.id} counterpartId={load.carrierId} to="carrier" />
        </Group>
      )}
      {/* issue 19: the booked carrier's next trip, from where this one ends */}
      {bookedByMe && ACTIVE_LOAD_STATUSES.includes(load.status) && <BackhaulsPanel loadId={load.id} hrefOf={(id) => `${base}/loads/${id}`} />}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Paper withBorder p="md">
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Stat
                  label={price.agreed ? t('field.agreedPrice') : t('field.price')}
                  value={
                    <>
                      <Text c="masar" fw={700} size="xl" component="span">
                        {formatMoney(price.priceSar, lang)}
                      </Text>
                      {price.agreed && price.postedPriceSar !== price.priceSar && (
                        <Text size="xs" c="dimmed" fw={400} data-testid="load-posted-price">
                          {t('field.postedPrice', { price: formatMoney(price.postedPriceSar, lang) })}
                        </Text>
                      )}
                      <LaneRateHint
                        fw={400}
                        origin={load.stops[0]?.cityId}
                        destination={load.stops[load.stops.length - 1]?.cityId}
                        equipment={load.equipmentType}
                        price={price.priceSar}
                      />
                    </>
                  }
                  testId="load-price"
                />
                <Stat label={t('field.distance')} value={km(load.distanceKm)} />
                <Stat label={t('field.ratePerKm')} value={t('unit.perKm', { value: formatMoney(price.ratePerKmSar, lang, { decimals: 2 }) })} />
                <Stat label={t('field.weight')} value={t('unit.kg', { value: formatNumber(load.totalWeightKg, lang) })} />
                <Stat label={t('field.equipment')} value={refName(eq.data, load.equipmentType, lang)} />
                <Stat
                  label={t('field.shipper')}
                  value={
                    <Stack gap={2}>
                      <Group gap={4} wrap="nowrap">
                        <bdi>{load.shipperCompany}</bdi>
                        {viewer.profile && !isOwner && <Slot name="RelationMenu" userId={load.shipperId} companyName={load.shipperCompany} />}
                        {viewer.profile && !isOwner && (canBid || bookedByMe) && <Slot name="MessageButton" loadId={load.id} to="shipper" />}
                      </Group>
                      <Slot name="DaysToPayBadge" shipperId={load.shipperId} />
                    </Stack>
                  }
                />
                <Stat label={t('field.postedAt')} value={load.postedAt ? <DateText value={load.postedAt} withTime={false} /> : '—'} />
                <Stat label={t('field.offers')} value={formatNumber(load.offersCount, lang)} />
              </SimpleGrid>
            </Paper>
            <Paper withBorder p="md">
              <Title order={4} mb="sm">
                {t('form.section.stops')}
              </Title>
              <StopTimeline stops={load.stops} />
            </Paper>
            <Paper withBorder p="md">
              <Title order={4} mb="sm">
                {t('form.section.cargo')}
              </Title>
              <Table.ScrollContainer minWidth={560}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('field.goodsType')}</Table.Th>
                      <Table.Th>{t('field.dimensions')}</Table.Th>
                      <Table.Th>{t('field.quantity')}</Table.Th>
                      <Table.Th>{t('field.weightPerItem')}</Table.Th>
                      <Table.Th>{t('field.flags')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {load.cargo.map((c) => (
                      <Table.Tr key={c.id}>
                        <Table.Td>{refName(goods.data, c.goodsType, lang)}</Table.Td>
                        <Table.Td>
                          {t('unit.dims', { l: formatNumber(c.lengthCm, lang, 1), w: formatNumber(c.widthCm, lang, 1), h: formatNumber(c.heightCm, lang, 1) })}
                        </Table.Td>
                        <Table.Td>{formatNumber(c.quantity, lang)}</Table.Td>
                        <Table.Td>{t('unit.kg', { value: formatNumber(c.weightPerItemKg, lang, 2) })}</Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            {c.stackable && (
                              <Badge size="xs" variant="light">
                                {t('field.stackable')}
                              </Badge>
                            )}
                            {c.adr && (
                              <Badge size="xs" variant="light" color="masarRed">
                                {t('field.adr')}
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
            <TermsPanel load={load} />
            {load.comments && (
              <Paper withBorder p="md">
                <Title order={4} mb="xs">
                  {t('field.comments')}
                </Title>
                <Text style={{ whiteSpace: 'pre-wrap' }}>{load.comments}</Text>
              </Paper>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            <PartyPanels load={load} isOwner={isOwner} bookedByMe={bookedByMe} />
            {isOwner && (load.status === 'posted' || load.status === 'unposted') && (
              <Slot name="TenderLoadButton" loadId={load.id} referenceId={load.referenceId} />
            )}
            {canBid && load.bookNow && load.status === 'posted' && (
              <Paper withBorder p="md" data-testid="book-now-panel">
                <Stack gap="xs">
                  <Text fw={600}>{t('bookNow.panelTitle')}</Text>
                  <Text size="sm" c="dimmed">
                    {t('bookNow.panelText', { price: formatMoney(load.priceSar, lang) })}
                  </Text>
                  <BookNowButton load={load} onBooked={() => void q.refetch()} />
                </Stack>
              </Paper>
            )}
            {canBid && <Slot name="BidPanel" load={load} />}
            <Anchor component={Link} to={isOwner ? paths.myLoads : paths.search} size="sm">
              <Group gap={4} component="span" style={{ display: 'inline-flex' }}>
                <span style={{ display: 'inline-flex', transform: 'scaleX(-1)' }}>
                  <DirArrow size={14} />
                </span>
                {isOwner ? t('details.backToMyLoads') : t('details.backToSearch')}
              </Group>
            </Anchor>
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}

/** The shipment's terms and structured addresses (issue 7 post form); only what is set. */
function TermsPanel({ load }: { load: Load }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const hours = (h: Load['pickupHours']) => (h ? `${h.from}–${h.to}` : null);
  const rows: [string, React.ReactNode][] = [
    [t('field.shipmentType'), t(`shipmentType.${load.shipmentType}`)],
    ...(load.pickupLatest ? ([[t('field.pickupLatest'), <DateText key="pl" value={load.pickupLatest} />]] as [string, React.ReactNode][]) : []),
    ...(hours(load.pickupHours) ? ([[t('field.pickupHoursFrom').replace(/ from$/, ''), hours(load.pickupHours)]] as [string, React.ReactNode][]) : []),
    ...(hours(load.dropHours) ? ([[t('field.dropHoursFrom').replace(/ from$/, ''), hours(load.dropHours)]] as [string, React.ReactNode][]) : []),
    ...(load.paymentMethod ? ([[t('field.paymentMethod'), t(`paymentMethod.${load.paymentMethod}`)]] as [string, React.ReactNode][]) : []),
    ...(load.paidBy ? ([[t('field.paidBy'), t(`paidBy.${load.paidBy}`)]] as [string, React.ReactNode][]) : []),
    ...(load.paymentTermsDays != null
      ? ([[t('field.paymentTermsDays'), `${formatNumber(load.paymentTermsDays, lang)} ${t('unit.days')}`]] as [string, React.ReactNode][])
      : []),
    ...(load.detentionFreeHours != null || load.detentionRateSar
      ? ([
          [
            t('field.detention'),
            `${formatNumber(load.detentionFreeHours ?? 0, lang)} h · ${load.detentionRateSar ? formatMoney(load.detentionRateSar, lang) : '—'} ${t('unit.sarPerHour')}`,
          ],
        ] as [string, React.ReactNode][])
      : []),
    ...(load.deliveryType ? ([[t('field.deliveryType'), t(`deliveryType.${load.deliveryType}`)]] as [string, React.ReactNode][]) : []),
    ...(load.deliveryTo ? ([[t('field.deliveryTo'), load.deliveryTo]] as [string, React.ReactNode][]) : []),
    ...(load.tradable ? ([[t('field.tradable'), '✓']] as [string, React.ReactNode][]) : []),
  ];
  const addressed = load.stops.filter((s) => s.addressDetails);
  return (
    <Paper withBorder p="md" data-testid="load-terms">
      <Title order={4} mb="sm">
        {t('form.section.payment')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {rows.map(([label, value]) => (
          <Stat key={label} label={label} value={value} />
        ))}
      </SimpleGrid>
      {addressed.length > 0 && (
        <Stack gap={4} mt="md">
          {addressed.map((s) => {
            const a = s.addressDetails!;
            return (
              <Text key={s.id} size="sm" data-testid={`stop-address-${s.index}`}>
                <b>{s.stopType === STOP_TYPE.pickup ? t('address.senderBusiness') : t('address.receiverBusiness')}:</b> {a.businessName ?? '—'} ·{' '}
                {a.buildingNumber} {a.streetName}, {a.district}, {lang === 'ar' ? s.cityNameAr : s.cityNameEn} {a.zipCode}
                {a.additionalNumber ? `-${a.additionalNumber}` : ''}, {a.region}
                {a.unitNumber ? ` · ${t('address.unitNumber')} ${a.unitNumber}` : ''}
              </Text>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
