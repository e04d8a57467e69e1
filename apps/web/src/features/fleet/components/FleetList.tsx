import type { ReactNode } from 'react';
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconContainer, IconTruck, IconUser } from '@tabler/icons-react';
import { NATIONALITIES_BY_VALUE } from '../utils/nationalities';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { PlatePreview } from '../../../components/PlatePicker';
import { itemRecord, type Driver, type FleetItem, type FleetKind, type FleetRow, type Trailer, type Vehicle } from '../api/fleet';
import { asLang, driverName, formatNumber, vehicleTitle, type Lang } from '../utils/format';
import { RowActions } from './RowActions';
import { useEquipmentTypes } from './VehicleForm';
import { refName } from '../../../components/reference';

const KIND_ICON: Record<FleetKind, ReactNode> = { vehicle: <IconTruck size={18} />, trailer: <IconContainer size={18} />, driver: <IconUser size={18} /> };

export function StateBadge({ state }: { state: string }) {
  const { t } = useTranslation('fleet');
  const color = state === 'active' ? 'masar' : state === 'suspended' ? 'yellow' : 'gray';
  return (
    <Badge color={color} variant="light" data-testid="state-badge">
      {t(`state.${state}`, { defaultValue: state })}
    </Badge>
  );
}

/** WASL status of a vehicle or driver (issue 7), with WASL's reasons when not verified. */
export function WaslBadge({ status, reasons = [] }: { status: string; reasons?: string[] }) {
  const { t } = useTranslation('fleet');
  return (
    <Badge
      color={status === 'verified' ? 'masar' : status === 'not_verified' ? 'red' : 'gray'}
      variant="dot"
      title={reasons.length ? reasons.join(', ') : undefined}
      data-testid="wasl-badge"
    >
      {t('wasl.short')}: {t(`wasl.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function VehicleBadges({ v }: { v: Vehicle }) {
  const { t } = useTranslation('fleet');
  return (
    <>
      {v.availability && (
        <Badge color={v.availability === 'free' ? 'teal' : 'orange'} variant="outline">
          {t(`availability.${v.availability}`, { defaultValue: v.availability })}
        </Badge>
      )}
      {v.waslStatus && <WaslBadge status={v.waslStatus} reasons={v.waslReasons} />}
    </>
  );
}

interface Summary {
  title: ReactNode;
  subtitle: ReactNode;
  details: ReactNode;
}

function summarize(row: FleetRow, kind: FleetKind, t: TFunction<'fleet'>, lang: Lang, eqName: (code: string) => string): Summary {
  if (kind === 'vehicle') {
    const v = row as Vehicle;
    return {
      title: <PlatePreview value={v.plate} plateType={v.plateType} size="sm" />,
      subtitle: vehicleTitle(v),
      details: (
        <Stack gap={0}>
          <Text size="sm">
            {t('vehicle.driver')}: {v.driverName ?? t('none')}
          </Text>
          <Text size="sm">
            {t('vehicle.trailer')}: {v.trailerNumber ?? t('none')}
          </Text>
        </Stack>
      ),
    };
  }
  if (kind === 'trailer') {
    const tr = row as Trailer;
    return {
      // a registration number, shown as typed and as on the trailer's papers (e2e/digits.test.ts)
      title: (
        <Text fw={700} data-latin-digits>
          {tr.trailerNumber}
        </Text>
      ),
      subtitle: eqName(tr.trailerType),
      details: (
        <Text size="sm">
          {t('trailer.dims', {
            length: formatNumber(tr.lengthCm, lang),
            breadth: formatNumber(tr.breadthCm, lang),
            capacity: formatNumber(tr.capacityKg, lang),
          })}
        </Text>
      ),
    };
  }
  const d = row as Driver;
  const nat = NATIONALITIES_BY_VALUE.get(d.nationality);
  return {
    title: <Text fw={700}>{driverName(d)}</Text>,
    subtitle: nat ? (lang === 'ar' ? nat.ar : nat.en) : d.nationality,
    details: (
      <Stack gap={0}>
        <Text size="sm">
          <span dir="ltr">{d.phone}</span>
        </Text>
        <Text size="sm">
          {/* a document number, shown as typed and as on the licence (e2e/digits.test.ts) */}
          {t('driver.licenceShort')}: <bdi data-latin-digits>{d.licenceNumber}</bdi>
        </Text>
        <Group gap={4}>
          {d.waslStatus && <WaslBadge status={d.waslStatus} reasons={d.waslReasons} />}
          {d.trusted && (
            <Badge size="xs" variant="light">
              {t('trusted.badge')}
            </Badge>
          )}
        </Group>
      </Stack>
    ),
  };
}

/** Fleet rows as a table or a grid of cards (spec §2 "table/grid switch"). */
export function FleetList({
  rows,
  tab,
  view,
  onOpen,
}: {
  rows: FleetItem[];
  tab: number;
  view: 'table' | 'grid';
  onOpen: (kind: FleetKind, id: string, mode: 'view' | 'edit') => void;
}) {
  const { t, i18n } = useTranslation('fleet');
  const lang = asLang(i18n.language);
  const eq = useEquipmentTypes();
  const eqName = (code: string) => refName(eq.data, code, lang);
  const items = rows.map((it) => ({ row: itemRecord(it), kind: it.kind })).map((x) => ({ ...x, s: summarize(x.row, x.kind, t, lang, eqName) }));

  if (view === 'grid')
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="fleet-grid">
        {items.map(({ row, kind, s }) => (
          <Card key={`${kind}-${row.id}`} withBorder data-testid={`fleet-row-${row.id}`}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <UnstyledButton onClick={() => onOpen(kind, row.id, 'view')} style={{ minWidth: 0 }}>
                <Stack gap={4}>
                  <Group gap={6} c="dimmed">
                    {KIND_ICON[kind]}
                    <Text size="xs">{t(`kind.${kind}`)}</Text>
                  </Group>
                  {s.title}
                  <Text size="sm" c="dimmed">
                    {s.subtitle}
                  </Text>
                </Stack>
              </UnstyledButton>
              <RowActions kind={kind} row={row} onOpen={(m) => onOpen(kind, row.id, m)} />
            </Group>
            <Stack gap={6} mt="sm">
              {s.details}
              <Group gap={6}>
                <StateBadge state={row.state} />
                {kind === 'vehicle' && <VehicleBadges v={row as Vehicle} />}
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    );

  return (
    <Table.ScrollContainer minWidth={680}>
      <Table highlightOnHover verticalSpacing="sm" data-testid="fleet-table">
        <Table.Thead>
          <Table.Tr>
            {tab === 0 && <Table.Th>{t('list.kind')}</Table.Th>}
            <Table.Th>{t('list.name')}</Table.Th>
            <Table.Th>{t('list.details')}</Table.Th>
            <Table.Th>{t('list.status')}</Table.Th>
            <Table.Th w={48} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map(({ row, kind, s }) => (
            <Table.Tr key={`${kind}-${row.id}`} data-testid={`fleet-row-${row.id}`}>
              {tab === 0 && (
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    {KIND_ICON[kind]}
                    <Text size="sm">{t(`kind.${kind}`)}</Text>
                  </Group>
                </Table.Td>
              )}
              <Table.Td>
                <UnstyledButton onClick={() => onOpen(kind, row.id, 'view')}>
                  <Stack gap={2}>
                    {s.title}
                    <Text size="xs" c="dimmed">
                      {s.subtitle}
                    </Text>
                  </Stack>
                </UnstyledButton>
              </Table.Td>
              <Table.Td>{s.details}</Table.Td>
              <Table.Td>
                <Group gap={6}>
                  <StateBadge state={row.state} />
                  {kind === 'vehicle' && <VehicleBadges v={row as Vehicle} />}
                </Group>
              </Table.Td>
              <Table.Td>
                <RowActions kind={kind} row={row} onOpen={(m) => onOpen(kind, row.id, m)} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
