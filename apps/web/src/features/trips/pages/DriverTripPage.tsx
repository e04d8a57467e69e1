import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Card, Center, Container, FileInput, Group, SegmentedControl, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { IconFileUpload, IconMapPin, IconPhone, IconTruck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PLAIN_TRIP_STEPS, PROOF_MAX_BYTES, PROOF_STEPS, TRIP_STEPS, nextTripStep, type DriverJob, type GeoError } from '@masar/shared';
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
import { isOffline } from '../offline-queue';
import { useOfflineQueue, type OfflineQueue } from '../useOfflineQueue';

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
function TripSteps({ job, queued }: { job: DriverJob; queued: DriverJob['steps'][number]['step'][] }) {
  const { t, i18n } = useTranslation('trips');
  const ar = i18n.language === 'ar';
  const next = queued.length ? nextTripStep(queued.at(-1)!) : job.nextStep;
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
            description={d ? fmtTime(d.recordedAt ?? d.at, i18n.language) : queued.includes(s) ? t('driver.waiting') : undefined}
            data-testid={`trip-step-${s}`}
          />
        );
      })}
    </Stepper>
  );
}

/**
 * The job's next action (issue 49): the step the server expects, or the one after the steps still
 * queued offline. A plain step goes at once when online, else (or behind queued steps) into the
 * offline queue with the time of the tap; a proof needs a connection and first sends what waits.
 */
function useNextAction(job: DriverJob, token: string, onGeoError: (e: GeoError | null) => void, queue: OfflineQueue, file: File | null, onSent: () => void) {
  const qc = useQueryClient();
  // steps tapped offline count as done here until the server has them (issue 49)
  const queuedSteps = queue.items.flatMap((i) => (i.kind === 'step' && i.loadId === job.loadId ? [i.step] : []));
  const next = queuedSteps.length ? nextTripStep(queuedSteps.at(-1)!) : job.nextStep;
  const proofStop = next && next in PROOF_STEPS ? PROOF_STEPS[next as keyof typeof PROOF_STEPS] : null;
  const act = useMutation({
    mutationFn: async (proof?: File) => {
      const tappedAt = new Date().toISOString();
      const where: Where = await currentPosition();
      onGeoError(where.geoError ?? null);
      if (proofStop) {
        // a proof needs a connection: the steps queued before it go first
        if (queuedSteps.length) await queue.sync();
        return tripApi.proof(token, job.loadId, proofStop, where, (proof ?? file)!);
      }
      const plain = oneOf(PLAIN_TRIP_STEPS, next);
      if (!plain) return null;
      const item = { kind: 'step' as const, loadId: job.loadId, step: plain, where, recordedAt: tappedAt };
      // offline, or behind steps still waiting: queue it with the time of the tap
      if (queuedSteps.length || !navigator.onLine) return queue.add(item);
      try {
        return await tripApi.step(token, job.loadId, plain, where);
      } catch (e) {
        if (isOffline(e)) return queue.add(item);
        throw e;
      }
    },
    onSuccess: () => {
      onSent();
      void qc.invalidateQueries({ queryKey: ['driver-trip'] });
    },
  });
  return { act, next, proofStop, queuedSteps };
}

function JobCard({ job, token, onGeoError, queue }: { job: DriverJob; token: string; onGeoError: (e: GeoError | null) => void; queue: OfflineQueue }) {
  const { t, i18n } = useTranslation('trips');
  const goodsTypes = useGoodsTypes();
  const [file, setFile] = useState<File | null>(null);
  const { act, next, proofStop, queuedSteps } = useNextAction(job, token, onGeoError, queue, file, () => setFile(null));
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
        <TripSteps job={job} queued={queuedSteps} />
      </Stack>
    </Card>
  );
}

/** Report the browser's position while a job runs (started, not completed); without a connection it waits in the queue. */
function useTripTracking(token: string | null, running: boolean, queue: OfflineQueue) {
  const { add } = queue;
  const busy = useRef(false);
  useEffect(() => {
    if (!token || !running) return;
    const tick = async () => {
      if (busy.current) return;
      busy.current = true;
      const w = await currentPosition(15_000);
      const fixedAt = new Date().toISOString();
      if (w.lat !== undefined && w.lng !== undefined) {
        const { lat, lng } = w;
        await tripApi
          .position(token, { lat, lng })
          .catch((e: unknown) => (isOffline(e) ? add({ kind: 'position', lat, lng, recordedAt: fixedAt }) : undefined));
      }
      busy.current = false;
    };
    void tick();
    const id = window.setInterval(() => void tick(), POSITION_EVERY_MS);
    return () => window.clearInterval(id);
  }, [token, running, add]);
}

/** Above the jobs: why there is no position, how many steps wait to be sent (issue 49), a refused sync, the tracking note. */
function TripNotices({ geoError, queue, running }: { geoError: GeoError | null; queue: OfflineQueue; running: boolean }) {
  const { t } = useTranslation('trips');
  const waiting = queue.items.filter((i) => i.kind === 'step').length;
  return (
    <>
      {geoError && (
        <Alert color="yellow" data-testid="trip-geo-error" data-code={geoError}>
          {t(`geo.${geoError}`)}
        </Alert>
      )}
      {waiting > 0 && (
        <Alert color="blue" data-testid="trip-pending" data-count={waiting}>
          {t('driver.pending', { count: waiting })}
        </Alert>
      )}
      {queue.error && (
        <Alert color="red" data-testid="trip-sync-error">
          {queue.error}
        </Alert>
      )}
      {running && (
        <Text size="xs" c="dimmed">
          {t('driver.tracking')}
        </Text>
      )}
    </>
  );
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
  const queue = useOfflineQueue(token);
  const running = !!jobs.data?.items.some((j) => j.steps.length > 0 && j.nextStep !== null) || queue.items.some((i) => i.kind === 'step');
  useTripTracking(token, running, queue);

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
            <TripNotices geoError={geoError} queue={queue} running={running} />
            {jobs.isLoading ? (
              <Center>
                <Loading />
              </Center>
            ) : jobs.error ? (
              <Alert color="red">{jobs.error.message}</Alert>
            ) : jobs.data?.items.length ? (
              jobs.data.items.map((j) => <JobCard key={j.loadId} job={j} token={session.sessionToken} onGeoError={setGeoError} queue={queue} />)
            ) : (
              <Alert data-testid="trip-no-jobs">{t('driver.noJobs')}</Alert>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
