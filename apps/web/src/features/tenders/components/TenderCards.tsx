import { useState } from 'react';
import { Anchor, Badge, Button, Card, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Tender, TenderInvite } from '@masar/shared';
import { asLang, formatDate, formatMoney } from '../../../components/format';
import { Lane } from '../../../components/Lane';
import { NumberInput } from '../../../components/NumberInput';
import { notifyError, notifySuccess } from '../../../components/notify';
import { isolate } from '../../../components/bidi';
import { Slot } from '../../../components/slots';
import { useAnswerTender, useAwardTender, useCancelTender } from '../api/tenders';

const STATUS_COLOR: Record<string, string> = {
  open: 'masar',
  awarded: 'green',
  closed: 'gray',
  cancelled: 'gray',
  waiting: 'gray',
  invited: 'yellow',
  accepted: 'green',
  countered: 'blue',
  declined: 'masarRed',
  expired: 'gray',
};

/** The head of a tender card: load reference (link), lane, status and mode, deadline and rate. */
/** Why an answer is or is not compliant: verified account, WASL-ready truck, blocked by me (one place for the table and the phone cards). */
function ComplianceBadges({ invite: i }: { invite: TenderInvite }) {
  const { t } = useTranslation('tenders');
  return (
    <Group gap={4}>
      <Badge size="xs" variant="outline" color={i.verified ? 'green' : 'gray'}>
        {i.verified ? t('invite.verified') : t('invite.notVerified')}
      </Badge>
      <Badge size="xs" variant="outline" color={i.waslVerified ? 'green' : 'gray'}>
        {i.waslVerified ? t('invite.wasl') : t('invite.noWasl')}
      </Badge>
      {i.blocked && (
        <Badge size="xs" color="masarRed">
          {t('invite.blocked')}
        </Badge>
      )}
    </Group>
  );
}

function TenderHead({ tender, href, extra }: { tender: Tender; href: string; extra?: string }) {
  const { t, i18n } = useTranslation('tenders');
  const lang = asLang(i18n.language);
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Anchor component={Link} to={href} ff="monospace" size="sm">
          {tender.loadReferenceId}
        </Anchor>
        <Badge variant="light" color={STATUS_COLOR[tender.status]} data-testid="tender-status">
          {t(`status.${tender.status}`)}
        </Badge>
        <Badge variant="outline" color="gray">
          {t(`mode.${tender.mode}`)}
        </Badge>
      </Group>
      <Lane lane={tender.lane} size="sm" />
      <Text size="sm" c="dimmed">
        {t('card.deadline', { at: formatDate(tender.deadline, lang) })} ·{' '}
        {tender.targetRateSar
          ? t('card.target', { price: formatMoney(tender.targetRateSar, lang) })
          : t('card.loadPrice', { price: formatMoney(tender.loadPriceSar, lang) })}
        {extra ? ` · ${extra}` : ''}
      </Text>
    </Stack>
  );
}

/** The owner's tender: every invite's answer side by side, the lowest compliant one highlighted, award (with a confirm) and cancel. */
export function SentTenderCard({ tender, href }: { tender: Tender; href: string }) {
  const { t, i18n } = useTranslation('tenders');
  const lang = asLang(i18n.language);
  const award = useAwardTender();
  const cancel = useCancelTender();
  const [confirm, setConfirm] = useState<TenderInvite | null>(null);
  // open, and its load still open (not booked or cancelled through another path)
  const open = tender.status === 'open' && (tender.loadStatus === 'posted' || tender.loadStatus === 'unposted');
  const waterfall = tender.mode === 'waterfall';

  return (
    <Card withBorder padding="sm" data-testid={`tender-${tender.loadReferenceId}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <TenderHead tender={tender} href={href} />
        {tender.status === 'open' && (
          <Button
            size="xs"
            variant="subtle"
            color="masarRed"
            loading={cancel.isPending}
            onClick={() => cancel.mutate(tender.id, { onSuccess: () => notifySuccess(t('card.cancelled')), onError: notifyError })}
          >
            {t('card.cancel')}
          </Button>
        )}
      </Group>
      <Table.ScrollContainer minWidth={560} mt="sm" visibleFrom="sm">
        <Table verticalSpacing={6} data-testid="tender-invites">
          <Table.Thead>
            <Table.Tr>
              {waterfall && <Table.Th>#</Table.Th>}
              <Table.Th>{t('invite.carrier')}</Table.Th>
              <Table.Th>{t('invite.status')}</Table.Th>
              <Table.Th>{t('invite.amount')}</Table.Th>
              <Table.Th>{t('invite.answeredAt')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tender.invites.map((i) => {
              const lowest = i.id === tender.lowestCompliantInviteId;
              const awardable = open && (i.status === 'accepted' || i.status === 'countered');
              return (
                <Table.Tr
                  key={i.id}
                  bg={lowest ? 'var(--mantine-color-green-light)' : undefined}
                  data-testid={`invite-${i.position}`}
                  data-lowest={lowest || undefined}
                >
                  {waterfall && <Table.Td>{i.position}</Table.Td>}
                  <Table.Td>
                    <Stack gap={2}>
                      <Text size="sm">{isolate(i.carrierCompany)}</Text>
                      <ComplianceBadges invite={i} />
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={STATUS_COLOR[i.status]}>
                      {t(`inviteStatus.${i.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" fw={lowest ? 700 : undefined}>
                        {i.amountSar ? formatMoney(i.amountSar, lang) : '—'}
                      </Text>
                      {lowest && (
                        <Badge size="xs" color="green" data-testid="lowest-compliant">
                          {t('invite.lowest')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {i.answeredAt
                        ? formatDate(i.answeredAt, lang)
                        : i.windowEndsAt && i.status === 'invited'
                          ? t('invite.until', { at: formatDate(i.windowEndsAt, lang) })
                          : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Slot name="MessageButton" loadId={tender.loadId} counterpartId={i.carrierId} to="carrier" company={i.carrierCompany} compact />
                      {awardable && (
                        <Button size="xs" onClick={() => setConfirm(i)} data-testid="award">
                          {t('invite.award')}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {/* phones: one small card per invite, nothing to scroll sideways */}
      <Stack gap="xs" mt="sm" hiddenFrom="sm" data-testid="tender-invites-phone">
        {tender.invites.map((i) => {
          const lowest = i.id === tender.lowestCompliantInviteId;
          const awardable = open && (i.status === 'accepted' || i.status === 'countered');
          return (
            <Card key={i.id} withBorder padding="xs" bg={lowest ? 'var(--mantine-color-green-light)' : undefined}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap={6} wrap="nowrap">
                    {waterfall && (
                      <Badge circle size="sm" variant="default">
                        {i.position}
                      </Badge>
                    )}
                    <Text size="sm" fw={600}>
                      {isolate(i.carrierCompany)}
                    </Text>
                  </Group>
                  <ComplianceBadges invite={i} />
                </Stack>
                <Stack gap={2} align="flex-end">
                  <Group gap={4} wrap="nowrap">
                    <Slot name="MessageButton" loadId={tender.loadId} counterpartId={i.carrierId} to="carrier" company={i.carrierCompany} compact />
                    <Badge size="sm" variant="light" color={STATUS_COLOR[i.status]}>
                      {t(`inviteStatus.${i.status}`)}
                    </Badge>
                  </Group>
                  {i.amountSar && (
                    <Text size="sm" fw={lowest ? 700 : undefined}>
                      {formatMoney(i.amountSar, lang)}
                    </Text>
                  )}
                </Stack>
              </Group>
              {(lowest || awardable) && (
                <Group justify="space-between" mt={4}>
                  {lowest ? (
                    <Badge size="xs" color="green">
                      {t('invite.lowest')}
                    </Badge>
                  ) : (
                    <span />
                  )}
                  {awardable && (
                    <Button size="xs" onClick={() => setConfirm(i)}>
                      {t('invite.award')}
                    </Button>
                  )}
                </Group>
              )}
            </Card>
          );
        })}
      </Stack>
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title={t('award.title')}>
        {confirm && (
          <Stack gap="sm">
            <Text>
              {t('award.body', { company: isolate(confirm.carrierCompany), price: formatMoney(confirm.amountSar ?? '0', lang), ref: tender.loadReferenceId })}
            </Text>
            {!confirm.compliant && (
              <Text size="sm" c="masarRed">
                {t('award.notCompliant')}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirm(null)}>
                {t('award.back')}
              </Button>
              <Button
                loading={award.isPending}
                data-testid="award-confirm"
                onClick={() =>
                  award.mutate(
                    { id: tender.id, inviteId: confirm.id },
                    {
                      onSuccess: () => {
                        notifySuccess(t('award.done'));
                        setConfirm(null);
                      },
                      onError: notifyError,
                    },
                  )
                }
              >
                {t('award.confirm')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}

/** An invited carrier's tender: accept at the offered rate, counter with an amount, or decline. */
export function ReceivedTenderCard({ tender, href }: { tender: Tender; href: string }) {
  const { t, i18n } = useTranslation('tenders');
  const lang = asLang(i18n.language);
  const answer = useAnswerTender();
  const [amount, setAmount] = useState<number | string>('');
  const [error, setError] = useState<string | undefined>();
  const mine = tender.invites[0];
  const canAnswer = tender.status === 'open' && (tender.loadStatus === 'posted' || tender.loadStatus === 'unposted') && mine?.status === 'invited';
  const rate = tender.targetRateSar ?? tender.loadPriceSar;
  const send = (action: 'accept' | 'counter' | 'decline') => {
    if (action === 'counter' && (amount === '' || Number(amount) <= 0)) {
      setError(t('answer.amountRequired'));
      return;
    }
    setError(undefined);
    answer.mutate(
      { id: tender.id, body: action === 'counter' ? { action, amountSar: String(amount) } : { action } },
      { onSuccess: () => notifySuccess(t('answer.sent')), onError: notifyError },
    );
  };
  return (
    <Card withBorder padding="sm" data-testid={`tender-${tender.loadReferenceId}`}>
      <TenderHead tender={tender} href={href} extra={t('card.from', { company: isolate(tender.ownerCompany) })} />
      {mine && (
        <Group gap="xs" mt="xs">
          <Badge variant="light" color={STATUS_COLOR[mine.status]} data-testid="my-invite-status">
            {t(`inviteStatus.${mine.status}`)}
          </Badge>
          {mine.amountSar && <Text size="sm">{formatMoney(mine.amountSar, lang)}</Text>}
          {mine.windowEndsAt && mine.status === 'invited' && (
            <Text size="xs" c="dimmed">
              {t('invite.until', { at: formatDate(mine.windowEndsAt, lang) })}
            </Text>
          )}
          <Slot name="MessageButton" loadId={tender.loadId} to="shipper" company={tender.ownerCompany} />
        </Group>
      )}
      {canAnswer && (
        <Group mt="sm" gap="xs" align="flex-end" wrap="wrap">
          <Button size="sm" onClick={() => send('accept')} loading={answer.isPending && answer.variables?.body.action === 'accept'} data-testid="answer-accept">
            {t('answer.accept', { price: formatMoney(rate, lang) })}
          </Button>
          <NumberInput
            size="sm"
            label={t('answer.counterAmount')}
            value={amount}
            onChange={setAmount}
            error={error}
            min={0}
            decimalScale={2}
            w={160}
            data-testid="answer-amount"
          />
          <Button size="sm" variant="light" onClick={() => send('counter')} data-testid="answer-counter">
            {t('answer.counter')}
          </Button>
          <Button size="sm" variant="subtle" color="masarRed" onClick={() => send('decline')} data-testid="answer-decline">
            {t('answer.decline')}
          </Button>
        </Group>
      )}
    </Card>
  );
}
