import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconBellPlus, IconTrash } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  RATE_ALERT_DIRECTIONS,
  RATE_ALERT_UNITS,
  RATE_ALERTS_MAX,
  RATE_KINDS,
  createRateAlertBody,
  type RateAlert,
  type RateAlertDirection,
  type RateAlertUnit,
  type RateKind,
} from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { NumberInput } from '../../../components/NumberInput';
import { asLang, formatDate, formatNumber } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../components/notify';
import { refName, useEquipmentTypes } from '../../../components/reference';
import { useViewer } from '../../../components/useViewer';
import { oneOf } from '../../../lib/api';
import { fieldErrors } from '../../../lib/form';
import { useCreateRateAlert, useDeleteRateAlert, useRateAlerts, useUpdateRateAlert } from '../api/forecast';
import { Loading } from '../../../components/Loading';

interface Draft {
  originCityId: number | null;
  destinationCityId: number | null;
  equipment: string | null;
  kind: RateKind;
  direction: RateAlertDirection;
  threshold: number | string;
  unit: RateAlertUnit;
  email: string;
}

/** The create form: lane, equipment, spot/contract, direction, threshold in % or SAR, e-mail (prefilled with mine). */
function CreateAlert({ disabled }: { disabled: boolean }) {
  const { t, i18n } = useTranslation('alerts');
  const lang = asLang(i18n.language);
  const { profile } = useViewer();
  const [params] = useSearchParams();
  const equipment = useEquipmentTypes();
  const create = useCreateRateAlert();
  const [key, setKey] = useState(() => crypto.randomUUID());
  const initial = (): Draft => ({
    originCityId: Number(params.get('origin')) || null,
    destinationCityId: Number(params.get('destination')) || null,
    equipment: params.get('equipment') || null,
    kind: oneOf(RATE_KINDS, params.get('kind')) ?? 'spot',
    direction: 'both',
    threshold: 10,
    unit: 'pct',
    email: profile?.email ?? '',
  });
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (p: Partial<Draft>) => setDraft((d) => ({ ...d, ...p }));
  const email = draft.email || profile?.email || '';

  const submit = () => {
    const body = { ...draft, email, equipment: draft.equipment ?? undefined, threshold: draft.threshold === '' ? undefined : Number(draft.threshold) };
    const parsed = createRateAlertBody.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    create.mutate(
      { body: parsed.data, key },
      {
        onSuccess: () => {
          notifySuccess(t('created'));
          setKey(crypto.randomUUID());
        },
        onError: notifyError,
      },
    );
  };

  return (
    <Card withBorder>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Title order={4}>{t('new')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
            <CitySelect
              label={t('field.origin')}
              value={draft.originCityId}
              onChange={(originCityId) => set({ originCityId })}
              error={errors.originCityId}
              required
              data-testid="alert-origin"
            />
            <CitySelect
              label={t('field.destination')}
              value={draft.destinationCityId}
              onChange={(destinationCityId) => set({ destinationCityId })}
              error={errors.destinationCityId}
              required
              data-testid="alert-destination"
            />
            <Select
              label={t('field.equipment')}
              placeholder={t('field.anyEquipment')}
              data={(equipment.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }))}
              value={draft.equipment}
              onChange={(v) => set({ equipment: v })}
              clearable
              searchable
              data-testid="alert-equipment"
            />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('field.kind')}
              </Text>
              <SegmentedControl value={draft.kind} onChange={(v) => set({ kind: v })} data={RATE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} />
            </Stack>
            <Select
              label={t('field.direction')}
              data={RATE_ALERT_DIRECTIONS.map((k) => ({ value: k, label: t(`direction.${k}`) }))}
              value={draft.direction}
              onChange={(v) => v && set({ direction: v })}
              allowDeselect={false}
              data-testid="alert-direction"
            />
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <NumberInput
                label={t('field.threshold')}
                value={draft.threshold}
                onChange={(threshold) => set({ threshold })}
                min={0}
                decimalScale={2}
                error={errors.threshold}
                style={{ flex: 1 }}
                data-testid="alert-threshold"
              />
              <SegmentedControl
                value={draft.unit}
                onChange={(v) => set({ unit: v })}
                data={RATE_ALERT_UNITS.map((k) => ({ value: k, label: t(`unit.${k}`) }))}
                data-testid="alert-unit"
              />
            </Group>
            <TextInput
              label={t('field.email')}
              type="email"
              value={email}
              onChange={(e) => set({ email: e.currentTarget.value })}
              error={errors.email}
              required
              data-testid="alert-email"
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('rule', { hours: formatNumber(24, lang) })}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconBellPlus size={16} />} loading={create.isPending} disabled={disabled} data-testid="alert-submit">
              {t('create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function AlertCard({ alert }: { alert: RateAlert }) {
  const { t, i18n } = useTranslation('alerts');
  const lang = asLang(i18n.language);
  const equipment = useEquipmentTypes();
  const update = useUpdateRateAlert();
  const remove = useDeleteRateAlert();
  const name = (c: RateAlert['origin']) => (lang === 'ar' ? c.nameAr : c.nameEn);
  const threshold =
    alert.unit === 'pct'
      ? t('thresholdPct', { value: formatNumber(alert.threshold, lang, 2) })
      : t('thresholdSar', { value: formatNumber(alert.threshold, lang, 2) });
  return (
    <Card withBorder data-testid="alert-card">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Text fw={700} data-testid="alert-lane">
            {t('lane', { origin: name(alert.origin), destination: name(alert.destination) })}
          </Text>
          <Text size="sm" c="dimmed">
            {[alert.equipment ? refName(equipment.data, alert.equipment, lang) : t('field.anyEquipment'), t(`kind.${alert.kind}`)].join(' · ')}
          </Text>
          <Text size="sm">{t('summary', { direction: t(`direction.${alert.direction}`), threshold })}</Text>
          <Text size="xs" c="dimmed">
            {alert.email}
            {' · '}
            {alert.lastTriggeredAt ? t('lastTriggered', { at: formatDate(alert.lastTriggeredAt, lang) }) : t('neverTriggered')}
          </Text>
        </Stack>
        <Group gap="sm">
          <Badge color={alert.active ? 'masar' : 'gray'} variant="light">
            {t(alert.active ? 'status.active' : 'status.paused')}
          </Badge>
          <Switch
            checked={alert.active}
            onChange={(e) => update.mutate({ id: alert.id, body: { active: e.currentTarget.checked } }, { onError: notifyError })}
            aria-label={t(alert.active ? 'pause' : 'resume')}
            data-testid="alert-toggle"
          />
          <ActionIcon
            variant="subtle"
            color="masarRed"
            aria-label={t('delete')}
            loading={remove.isPending}
            onClick={() => remove.mutate(alert.id, { onSuccess: () => notifySuccess(t('deleted')), onError: notifyError })}
            data-testid="alert-delete"
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      </Group>
    </Card>
  );
}

/**
 * /shippers|/carriers|/brokers/rate-change-alerts (issue 20; spec §2 /rate-change-alerts, §3):
 * my saved lanes with a threshold; an e-mail arrives when the lane's average rate of the last
 * 24 hours moves past it. List, create, pause/resume, delete.
 */
export default function RateAlertsPage() {
  const { t, i18n } = useTranslation('alerts');
  const lang = asLang(i18n.language);
  const q = useRateAlerts();
  const items = q.data ?? [];
  const full = items.length >= RATE_ALERTS_MAX;
  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <div>
          <Title order={2}>{t('title')}</Title>
          <Text c="dimmed">{t('subtitle')}</Text>
        </div>
        <CreateAlert disabled={full} />
        {full && <Alert color="yellow">{t('full', { max: formatNumber(RATE_ALERTS_MAX, lang) })}</Alert>}
        {q.isPending && (
          <Center h={120}>
            <Loading />
          </Center>
        )}
        {q.isError && <Alert color="masarRed">{q.error.message}</Alert>}
        {q.isSuccess && items.length === 0 && (
          <Text c="dimmed" ta="center" py="xl" data-testid="alerts-empty">
            {t('empty')}
          </Text>
        )}
        <Stack gap="sm" data-testid="alerts-list">
          {items.map((a) => (
            <AlertCard key={a.id} alert={a} />
          ))}
        </Stack>
      </Stack>
    </Container>
  );
}
