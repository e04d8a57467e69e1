import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { Detention } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { asLang, formatMoney, formatNumber } from '../../../components/format';
import { DateText } from '../../../components/Money';
import { useDecideDetention, useDetention } from '../api/loads';

type Stop = Detention['stops'][number];

/** One stop: arrival and departure (device time when recorded offline), billable minutes, amount, the decision. */
function StopRow({ s, isShipper, loadId }: { s: Stop; isShipper: boolean; loadId: string }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const decide = useDecideDetention(loadId);
  const [key] = useState(() => crypto.randomUUID());
  const [reason, setReason] = useState('');
  const [disputing, setDisputing] = useState(false);
  if (!s.arrival) return null;
  return (
    <Stack gap={4} data-testid={`detention-${s.stop}`}>
      <Group gap="xs">
        <Text fw={600}>{t(`detention.stop.${s.stop}`)}</Text>
        {s.accruing && <Badge color="masarYellow">{t('detention.accruing')}</Badge>}
        {s.capped && <Badge variant="light">{t('detention.capped')}</Badge>}
        {s.decision && <Badge color={s.decision.decision === 'accepted' ? 'masar' : 'masarRed'}>{t(`detention.decision.${s.decision.decision}`)}</Badge>}
      </Group>
      <Text size="sm">
        {t('detention.arrived')} <DateText value={s.arrival.at} />
        {s.arrival.recordedOffline && ` (${t('detention.offline')})`}
        {s.departure && (
          <>
            {' · '}
            {t('detention.departed')} <DateText value={s.departure.at} />
          </>
        )}
      </Text>
      <Text size="sm" data-testid={`detention-${s.stop}-amount`}>
        {t('detention.billable', { minutes: formatNumber(s.billableMinutes, lang), amount: formatMoney(s.amountSar, lang) })}
      </Text>
      {s.proofId && (
        <Text size="xs" c="dimmed">
          {t('detention.proof', { id: s.proofId.slice(0, 8) })}
        </Text>
      )}
      {decide.error && (
        <Alert color="masarRed" variant="light">
          {decide.error.message}
        </Alert>
      )}
      {isShipper && !s.decision && (
        <Group gap="xs">
          {!s.accruing && (
            <Button
              size="xs"
              loading={decide.isPending}
              onClick={() => decide.mutate({ key, stop: s.stop, decision: 'accept' })}
              data-testid={`detention-${s.stop}-accept`}
            >
              {t('detention.accept')}
            </Button>
          )}
          {disputing ? (
            <>
              <TextInput
                size="xs"
                aria-label={t('detention.disputeReason')}
                placeholder={t('detention.disputeReason')}
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
              />
              <Button
                size="xs"
                color="masarRed"
                loading={decide.isPending}
                onClick={() => decide.mutate({ key: `${key}-d`, stop: s.stop, decision: 'dispute', reason })}
              >
                {t('detention.dispute')}
              </Button>
            </>
          ) : (
            <Button size="xs" variant="default" onClick={() => setDisputing(true)}>
              {t('detention.dispute')}
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

/**
 * Detention from the trip's own timestamps (issue 50) for the shipper and the booked carrier:
 * per stop, live while the truck waits; the shipper accepts (paid through the ledger) or disputes.
 */
export function DetentionPanel({ loadId, isShipper }: { loadId: string; isShipper: boolean }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const q = useDetention(loadId, true);
  const d = q.data;
  if (!d || !d.stops.some((s) => s.arrival)) return null;
  return (
    <Paper withBorder p="md" data-testid="detention-panel">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t('detention.title')}</Title>
        <Text fw={600}>{t('detention.total', { amount: formatMoney(d.totalSar, lang) })}</Text>
      </Group>
      <Stack gap="sm">
        {d.stops.map((s) => (
          <StopRow key={s.stop} s={s} isShipper={isShipper} loadId={loadId} />
        ))}
      </Stack>
    </Paper>
  );
}
