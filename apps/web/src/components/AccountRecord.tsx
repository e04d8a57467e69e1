import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconClockCheck, IconPackage, IconShieldCheck, IconX, IconCash, IconSparkles } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RECORD_MIN_COMPLETED, type AccountRecord } from '@masar/shared';
import { asLang, formatNumber, formatPercent } from './format';

/** One figure: a light badge whose tooltip says what it counts (focusable, so the tooltip opens from the keyboard too). */
function Figure({ icon, label, help, testId, expanded }: { icon: ReactNode; label: string; help: string; testId: string; expanded: boolean }) {
  if (expanded)
    return (
      <Stack gap={0} data-testid={testId}>
        <Group gap={4} wrap="nowrap">
          {icon}
          <Text size="sm" fw={600}>
            {label}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      </Stack>
    );
  return (
    <Tooltip label={help} multiline w={260} withArrow events={{ hover: true, focus: true, touch: true }}>
      <Badge variant="light" color="gray" leftSection={icon} tt="none" tabIndex={0} data-testid={testId}>
        {label}
      </Badge>
    </Tooltip>
  );
}

/**
 * An account's fact-based record (issue 19; docs/account-record.md), compact (a row of badges,
 * each explained in its tooltip) or `expanded` (each figure with its explanation, truck
 * details). `side`: the account as carrier (trucks, offers) or as shipper. "New on Masar" when
 * that side has fewer than RECORD_MIN_COMPLETED completed shipments.
 */
export function AccountRecordSummary({
  record,
  side = 'carrier',
  expanded = false,
}: {
  record: AccountRecord;
  side?: 'carrier' | 'shipper';
  expanded?: boolean;
}) {
  const { t, i18n } = useTranslation('record');
  const lang = asLang(i18n.language);
  const pct = (v: number | null) => (v === null ? t('none') : formatPercent(v / 100, lang));
  const n = (v: number) => formatNumber(v, lang);
  const icon = (I: typeof IconPackage) => <I size={14} aria-hidden />;
  const Wrap = expanded ? Stack : Group;
  const wrapProps = expanded ? { gap: 'xs' } : { gap: 4, wrap: 'wrap' as const };

  const c = side === 'carrier' ? record.asCarrier : null;
  const s = side === 'shipper' ? record.asShipper : null;
  if (!c && !s)
    return (
      <Group gap={4} data-testid="account-record">
        <Figure
          icon={icon(IconSparkles)}
          label={t('new')}
          help={t('newHelp', { count: RECORD_MIN_COMPLETED, n: RECORD_MIN_COMPLETED })}
          testId="record-new"
          expanded={expanded}
        />
      </Group>
    );
  // each figure: icon, label, help, test id
  const figures: [typeof IconPackage, string, string, string][] = c
    ? [
        [IconPackage, t('completed', { count: c.completed, n: n(c.completed) }), t('completedHelp'), 'record-completed'],
        [
          IconClockCheck,
          t('onTimePickup', { value: pct(c.onTimePickupPct) }),
          t('onTimePickupHelp', { count: c.pickupsMeasured, n: n(c.pickupsMeasured) }),
          'record-pickup',
        ],
        [
          IconClockCheck,
          t('onTimeDelivery', { value: pct(c.onTimeDeliveryPct) }),
          t('onTimeDeliveryHelp', { count: c.deliveriesMeasured, n: n(c.deliveriesMeasured) }),
          'record-delivery',
        ],
        [
          IconX,
          t('cancellations', { count: c.cancellationsAfterBooking, n: n(c.cancellationsAfterBooking) }),
          t('cancellationsCarrierHelp'),
          'record-cancellations',
        ],
        [
          IconShieldCheck,
          t('wasl', { value: pct(c.waslVerifiedPct) }),
          t('waslHelp', { verified: n(c.waslVerifiedVehicles), vehicles: n(c.vehicles), count: c.vehicles }),
          'record-wasl',
        ],
      ]
    : [
        [IconPackage, t('completed', { count: s!.completed, n: n(s!.completed) }), t('shippedHelp'), 'record-completed'],
        [
          IconCash,
          s!.daysToPay === null ? t('daysToPayNone') : t('daysToPay', { value: formatNumber(s!.daysToPay, lang, 1) }),
          t('daysToPayHelp', { count: s!.paidShipments, n: n(s!.paidShipments) }),
          'record-days-to-pay',
        ],
        [
          IconX,
          t('cancellations', { count: s!.cancellationsAfterBooking, n: n(s!.cancellationsAfterBooking) }),
          t('cancellationsShipperHelp'),
          'record-cancellations',
        ],
      ];
  return (
    <Wrap {...wrapProps} data-testid="account-record">
      {figures.map(([I, label, help, testId]) => (
        <Figure key={testId} icon={icon(I)} label={label} help={help} testId={testId} expanded={expanded} />
      ))}
    </Wrap>
  );
}
