import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Card, Center, Container, FileInput, Group, SegmentedControl, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { IconFileUpload, IconMapPin, IconPhone, IconTruck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PLAIN_TRIP_STEPS, PROOF_MAX_BYTES, PROOF_STEPS, TRIP_STEPS, type DriverJob, type GeoError } from '@masar/shared';
import { oneOf } from '../../../lib/api';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { applyLanguage } from '../../../i18n';
import { isolate } from '../../../components/bidi';
import { RIYADH_TZ, formatDate, formatNumber } from '../../../components/format';
import { digitSystem } from '../../../lib/digits';
import { refName, useGoodsTypes } from '../../../components/reference';
import { readTripSession, saveTripSession, tripApi, type StoredTripSession, type Where } from '../api/trips';
import { currentPosition } from '../geo';
import { dateTimeFormat } from '../../../lib/intl';
import { Loading } from '../../../components/Loading';
import { StopDetails, telHref, type StopContact } from '../components/StopDetails';

/** How often the driver's browser reports its position while a job runs (ms). */
const POSITION_EVERY_MS = 60_000;

function LanguageSwitch() {
  const { t, i18n } = useTranslation('trips');
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('driver.language')}
      data-testid="trip-language"
      value={i18n.language === 'ar' ? 'ar' : 'en'}
      onChange={(v) => applyLanguage(v === 'ar' ? 'ar' : 'en')}
      data={[
        { value: 'ar', label: 'العربية' },
        { value: 'en', label: 'English' },
      ]}
    />
  );
}

function Identify({ link, onOpen }: { link: string; onOpen: (s: StoredTripSession) => void }) {
  const { t } = useTranslation('trips');
  const [phone, setPhone] = useState('');
  const [licence, setLicence] = useState('');
  const open = useMutation({
    mutationFn: () => tripApi.openSession({ token: link, phone, licenceNumber: licence }),
    onSuccess: (s) => onOpen({ ...s, link }),
  });
  return (
    <Card withBorder>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          open.mutate();
        }}
      >
        <Stack>
          <Text>{t('driver.intro')}</Text>
          <TextInput
            label={t('driver.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            dir="ltr"
            required
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            data-testid="trip-phone"
          />
          <TextInput
            label={t('driver.licence')}
            inputMode="numeric"
            dir="ltr"
            required
            value={licence}
            onChange={(e) => setLicence(e.currentTarget.value)}
            data-testid="trip-licence"
          />
          {open.error && (
            <Alert color="red" data-testid="trip-identify-error">
              {open.error.message}
            </Alert>
          )}
          <Button type="submit" size="md" fullWidth loading={open.isPending} data-testid="trip-open">
            {t('driver.open')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/** A step's time as the driver reads it: Riyadh time (the driver and the shipper are in Saudi Arabia). */
const fmtTime = (iso: string, lang: string) =>
  dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    timeZone: RIYADH_TZ,
    numberingSystem: digitSystem(lang),
    hour: '2-digit',
    minute: '2-digit',
    day: 'numeric',
    month: 'short',
  }).format(new Date(iso));

/**
 * Call buttons for the job (issue 23): the dispatcher (the driver's manager or the carrier's
 * shared line) and the shipper's shared phones, as the server's contact rules allow them; the
 * number itself shows LTR inside the Arabic label.
 */
function CallButtons({ contacts }: { contacts: DriverJob['contacts'] }) {
  const { t } = useTranslation('trips');
  const calls = [
    ...(contacts.dispatcher
      ? [{ key: 'dispatcher', label: t('driver.callDispatcher'), name: contacts.dispatcher.name, phone: contacts.dispatcher.phone }]
      : []),
    ...(contacts.shipper?.phones ?? []).map((phone, i) => ({ key: `shipper-${i}`, label: t('driver.callShipper'), name: contacts.shipper!.name, phone })),
  ];
  if (calls.length === 0) return null;
  return (
    <Group gap="xs" grow data-testid="trip-calls">
      {calls.map((c) => (
        <Button
          key={c.key}
          component="a"
          href={telHref(c.phone)}
          variant="default"
          leftSection={<IconPhone size={16} />}
          aria-label={`${c.label}${c.name ? ` · ${c.name}` : ''} · ${c.phone}`}
          data-testid={`trip-call-${c.key}`}
        >
          {c.label}
        </Button>
      ))}
    </Group>
  );
}

/** The eight steps with their times (the device's when it sent one), numbered in the reader's digits (issue 49). */
function TripSteps({ job }: { job: DriverJob }) {
  const { t, i18n } = useTranslation('trips');
  const ar = i18n.language === 'ar';
  const next = job.nextStep;
  const active = next === null ? TRIP_STEPS.length : TRIP_STEPS.indexOf(next);
  const done = new Map(job.steps.map((s) => [s.step, s]));
  return (
    <Stepper active={active} orientation="vertical" size="xs" data-testid="trip-steps">
      {TRIP_STEPS.map((s, i) => {
        const d = done.get(s);
        // the step's number in the reader's digits (Mantine writes 1, 2, 3 otherwise)
        const n = formatNumber(i + 1, ar ? 'ar' : 'en');
        return (
          <Stepper.Step
            key={s}
            icon={n}
            label={t(`step.${s}`)}
            description={d ? fmtTime(d.recordedAt ?? d.at, i18n.language) : undefined}
            data-testid={`trip-step-${s}`}
          />
        );
      })}
    </Stepper>
  );
}

function JobCard({ job, token, onGeoError }: { job: DriverJob; token: string; onGeoError: (e: GeoError | null) => void }) {
  const { t, i18n } = useTranslation('trips');
  const goodsTypes = useGoodsTypes();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const next = job.nextStep;
  const proofStop = next && next in PROOF_STEPS ? PROOF_STEPS[next as keyof typeof PROOF_STEPS] : null;
  const act = useMutation({
    mutationFn: async (proof?: File) => {
      const where: Where = await currentPosition();
      onGeoError(where.geoError ?? null);
      if (proofStop) return tripApi.proof(token, job.loadId, proofStop, where, (proof ?? file)!);
      const plain = oneOf(PLAIN_TRIP_STEPS, next);
      if (!plain) return null;
      return tripApi.step(token, job.loadId, plain, where);
    },
    onSuccess: () => {
      setFile(null);
      void qc.invalidateQueries({ queryKey: ['driver-trip'] });
    },
  });
  // issue 22: a step of the pickup leg before the pickup window opens is allowed, with a warning
  const pickupOpens = job.pickup.date ? new Date(job.pickup.date) : null;
  const early = next !== null && TRIP_STEPS.indexOf(next) <= TRIP_STEPS.indexOf('pickup_proof') && pickupOpens !== null && pickupOpens.getTime() > Date.now();
  const ar = i18n.language === 'ar';
  const flagged = job.proofs.filter((p) => p.flagged);
  // no stop has a contact of its own: the shipper's shared line (the contact rules) is the one to call there
  const shipperPhone = job.contacts.shipper?.phones[0];
  const stopContact: StopContact = shipperPhone ? { name: job.contacts.shipper!.name, phone: shipperPhone } : null;
  return (
    <Card withBorder data-testid="trip-job" data-load={job.loadId} data-next={next ?? 'done'}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700} dir="ltr">
            {job.referenceId}
          </Text>
          <Badge variant="light">{t('driver.weight', { kg: formatNumber(job.totalWeightKg, ar ? 'ar' : 'en') })}</Badge>
        </Group>
        <Group gap={6} wrap="nowrap">
          <IconMapPin size={18} />
          <Text size="sm">
            {isolate(ar ? job.pickup.cityAr : job.pickup.cityEn)} {ar ? '←' : '→'} {isolate(ar ? job.drop.cityAr : job.drop.cityEn)}
          </Text>
        </Group>
        <StopDetails kind="pickup" stop={job.pickup} lang={ar ? 'ar' : 'en'} contact={stopContact} />
        <StopDetails kind="drop" stop={job.drop} lang={ar ? 'ar' : 'en'} contact={stopContact} />
        <CallButtons contacts={job.contacts} />
        {/* every cargo line (issue 23: only the first was shown) */}
        <Stack gap={2} data-testid="trip-cargo">
          {job.cargo.map((c, i) => (
            <Text key={i} size="sm" c="dimmed">
              {t('driver.cargoLine', {
                goods: refName(goodsTypes.data, c.goodsType, i18n.language),
                qty: formatNumber(c.quantity, ar ? 'ar' : 'en'),
                kg: formatNumber(c.weightKg, ar ? 'ar' : 'en'),
              })}
              {c.adr ? ` · ${t('driver.adr')}` : ''}
              {c.conditions ? ` · ${c.conditions}` : ''}
            </Text>
          ))}
        </Stack>
        {early && pickupOpens && (
          <Alert color="yellow" data-testid="trip-before-window">
            {t('driver.beforeWindow', { date: formatDate(pickupOpens, ar ? 'ar' : 'en') })}
          </Alert>
        )}
        {flagged.map((p) => (
          <Alert key={p.id} color="yellow" data-testid="trip-proof-flagged">
            {t('driver.flagged', { km: p.distanceKm?.toFixed(1) })}
          </Alert>
        ))}
        {next === null ? (
          <Alert color="teal" data-testid="trip-done">
            {t('driver.jobDone')}
          </Alert>
        ) : (
          <Stack gap="xs">
            {proofStop && (
              <FileInput
                label={t('driver.proofFile')}
                description={t('driver.proofHint', { mb: PROOF_MAX_BYTES / 1024 / 1024 })}
                accept="image/jpeg,image/png,image/webp,application/pdf"
                capture="environment"
                value={file}
                // one tap: the photo taken (or file chosen) is sent at once; the button below retries
                onChange={(f) => {
                  setFile(f);
                  if (f && f.size <= PROOF_MAX_BYTES && !act.isPending) act.mutate(f);
                }}
                leftSection={<IconFileUpload size={16} />}
                data-testid="trip-proof-file"
                error={file && file.size > PROOF_MAX_BYTES ? t('driver.proofHint', { mb: PROOF_MAX_BYTES / 1024 / 1024 }) : undefined}
                clearable
              />
            )}
            {act.error && (
              <Alert color="red" data-testid="trip-step-error">
                {act.error.message}
              </Alert>
            )}
            <Button
              size="lg"
              fullWidth
              loading={act.isPending}
              disabled={!!proofStop && (!file || file.size > PROOF_MAX_BYTES)}
              onClick={() => act.mutate(undefined)}
              data-testid="trip-next"
              data-step={next}
            >
              {proofStop ? t('driver.upload') : t(`step.${next}`)}
            </Button>
          </Stack>
        )}
        <TripSteps job={job} />
      </Stack>
    </Card>
  );
}

/** Report the browser's position while a job runs (started, not completed). */
function useTripTracking(token: string | null, running: boolean) {
  const busy = useRef(false);
  useEffect(() => {
    if (!token || !running) return;
    const tick = async () => {
      if (busy.current) return;
      busy.current = true;
      const w = await currentPosition(15_000);
      if (w.lat !== undefined && w.lng !== undefined) await tripApi.position(token, { lat: w.lat, lng: w.lng }).catch(() => undefined);
      busy.current = false;
    };
    void tick();
    const id = window.setInterval(() => void tick(), POSITION_EVERY_MS);
    return () => window.clearInterval(id);
  }, [token, running]);
}

/**
 * The driver's job link, /driver?token=… (spec §2 "share driver link", §6 identified by phone +
 * licence number; issue 7). No account: the trip session is kept in sessionStorage. Mobile first
 * (390×844), Arabic or English. Steps: start job → on the way to pickup → arrived at pickup →
 * proof of pickup → on the way to drop → arrived at drop → proof of drop → job completed, each
 * timestamped by the server and geolocated when the browser allows.
 */
export default function DriverTripPage() {
  const { t } = useTranslation('trips');
  const [params] = useSearchParams();
  const link = params.get('token') ?? '';
  const [session, setSession] = useState<StoredTripSession | null>(() => (link ? readTripSession(link) : null));
  const [geoError, setGeoError] = useState<GeoError | null>(null);
  const token = session?.sessionToken ?? null;
  const jobs = useQuery({ queryKey: ['driver-trip', token], queryFn: () => tripApi.jobs(token!), enabled: !!token, retry: false });
  const running = !!jobs.data?.items.some((j) => j.steps.length > 0 && j.nextStep !== null);
  useTripTracking(token, running);

  useEffect(() => {
    if (jobs.error && 'code' in jobs.error && jobs.error.code === 'TRIP_SESSION_INVALID') {
      saveTripSession(null);
      setSession(null);
    }
  }, [jobs.error]);

  return (
    <Container size={480} px="sm" py="md" data-testid="driver-trip-page">
      <Stack>
        <Group justify="space-between" wrap="nowrap">
          <Group gap={8} wrap="nowrap">
            <IconTruck size={28} stroke={1.4} color="var(--mantine-color-masar-6)" />
            <Title order={3}>{t('driver.title')}</Title>
          </Group>
          <LanguageSwitch />
        </Group>
        {!link ? (
          <Alert color="red" data-testid="trip-invalid-link">
            {t('driver.invalidLink')}
          </Alert>
        ) : !session ? (
          <Identify
            link={link}
            onOpen={(s) => {
              saveTripSession(s);
              setSession(s);
            }}
          />
        ) : (
          <>
            <Group justify="space-between">
              <Text fw={600} data-testid="trip-hello">
                {t('driver.hello', { name: isolate(session.driverName) })}
              </Text>
              <Group gap="xs">
                <Button variant="subtle" size="compact-sm" onClick={() => void jobs.refetch()}>
                  {t('driver.refresh')}
                </Button>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  color="gray"
                  onClick={() => {
                    saveTripSession(null);
                    setSession(null);
                  }}
                >
                  {t('driver.signOut')}
                </Button>
              </Group>
            </Group>
            {geoError && (
              <Alert color="yellow" data-testid="trip-geo-error" data-code={geoError}>
                {t(`geo.${geoError}`)}
              </Alert>
            )}
            {running && (
              <Text size="xs" c="dimmed">
                {t('driver.tracking')}
              </Text>
            )}
            {jobs.isLoading ? (
              <Center>
                <Loading />
              </Center>
            ) : jobs.error ? (
              <Alert color="red">{jobs.error.message}</Alert>
            ) : jobs.data?.items.length ? (
              jobs.data.items.map((j) => <JobCard key={j.loadId} job={j} token={session.sessionToken} onGeoError={setGeoError} />)
            ) : (
              <Alert data-testid="trip-no-jobs">{t('driver.noJobs')}</Alert>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
