import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Container,
  CopyButton,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconKey, IconPlus, IconRefresh, IconTrash, IconWebhook } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_SCOPES,
  apiKeyCreateBody,
  WEBHOOK_EVENT_TYPES,
  webhookCreateBody,
  type ApiKey,
  type ApiKeyCreated,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { asLang, formatDate, formatNumber } from '../../../components/format';
import { masar, unwrap, type BodyOf } from '../../../lib/api';
import { notifySuccess, showApiError, zodValidate } from '../../../lib/form';
import { TableHead } from '../../../components/TableHead';

const KEYS = ['integrations', 'api-keys'];
const HOOKS = ['integrations', 'webhooks'];

/** A secret shown once, with a copy button. */
function SecretOnce({ label, value, note }: { label: string; value: string; note: string }) {
  const { t } = useTranslation('integrations');
  return (
    <Alert color="yellow" variant="light" title={label} data-testid="secret-once">
      <Stack gap="xs">
        <Text fz="sm">{note}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code dir="ltr" style={{ overflowWrap: 'anywhere' }} data-testid="secret-value">
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
                {copied ? t('copied') : t('copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}

/** A card's heading: its icon, title and one-line intro. */
function CardHead({ icon: Icon, title, intro }: { icon: typeof IconKey; title: string; intro: string }) {
  return (
    <>
      <Group gap="xs" mb="xs">
        <Icon size={20} aria-hidden />
        <Title order={2} fz="h3">
          {title}
        </Title>
      </Group>
      <Text c="dimmed" fz="sm" mb="md">
        {intro}
      </Text>
    </>
  );
}

/** A create form: two fields side by side (children), a required choice of options (scopes, events), the submit button. */
function CreateForm({
  onSubmit,
  children,
  label,
  inputProps,
  options,
  optionLabel,
  busy,
  submit,
}: {
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
  label: string;
  inputProps: ReturnType<ReturnType<typeof useForm>['getInputProps']>;
  options: readonly string[];
  optionLabel: (o: string) => string;
  busy: boolean;
  submit: string;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm" mt="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>{children}</SimpleGrid>
        <Checkbox.Group label={label} withAsterisk {...inputProps}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="xs">
            {options.map((o) => (
              <Checkbox key={o} value={o} label={optionLabel(o)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group>
          <Button type="submit" loading={busy} leftSection={<IconPlus size={16} />}>
            {submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Runs a write; a failure is shown, a success may be told and is followed by `then` (a refresh). */
async function attempt(write: () => Promise<unknown>, success?: string, then?: () => Promise<unknown>) {
  try {
    await write();
    if (success) notifySuccess(success);
    await then?.();
  } catch (e) {
    showApiError(e);
  }
}

const scopeLabel = (s: string) => `scope.${s.replace(':', '_')}`;
const eventLabel = (e: string) => `event.${e.replace('.', '_')}`;

function ApiKeysCard() {
  const { t, i18n } = useTranslation('integrations');
  const lang = asLang(i18n.language);
  const qc = useQueryClient();
  const { data: keys = [] } = useQuery({ queryKey: KEYS, queryFn: () => unwrap(masar.GET('/api/v1/api-keys')).then((d) => d.items) });
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', scopes: ['loads:read'] as string[], ratePerMinute: 120 },
    validate: zodValidate(apiKeyCreateBody),
  });
  const createKey = useMutation({
    mutationFn: (body: BodyOf<'/api/v1/api-keys', 'post'>) => unwrap(masar.POST('/api/v1/api-keys', { body })),
    // awaited by the mutation: the form's button stays busy until the key list is fresh
    onSuccess: async (k) => {
      setCreated(k);
      form.reset();
      await qc.invalidateQueries({ queryKey: KEYS });
    },
  });
  const revokeKey = useMutation({ mutationFn: (id: string) => unwrap(masar.DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } })) });
  const create = form.onSubmit(async (values) => {
    try {
      await createKey.mutateAsync(apiKeyCreateBody.parse(values));
    } catch (e) {
      showApiError(e, form);
    }
  });
  const revoke = async () => {
    if (!revoking) return;
    try {
      await revokeKey.mutateAsync(revoking.id);
      notifySuccess(t('keys.revoked'));
      await qc.invalidateQueries({ queryKey: KEYS });
    } catch (e) {
      showApiError(e);
    } finally {
      setRevoking(null);
    }
  };

  return (
    <Card withBorder radius="lg" padding="lg">
      <CardHead icon={IconKey} title={t('keys.title')} intro={t('keys.intro')} />
      {created && <SecretOnce label={t('keys.createdTitle', { name: created.name })} value={created.key} note={t('keys.createdNote')} />}
      <CreateForm
        onSubmit={create}
        label={t('keys.scopes')}
        inputProps={form.getInputProps('scopes')}
        options={API_KEY_SCOPES}
        optionLabel={(s) => t(scopeLabel(s))}
        busy={createKey.isPending}
        submit={t('keys.create')}
      >
        <TextInput label={t('keys.name')} placeholder={t('keys.namePlaceholder')} withAsterisk {...form.getInputProps('name')} />
        <NumberInput label={t('keys.rate')} min={1} max={6000} {...form.getInputProps('ratePerMinute')} />
      </CreateForm>
      {keys.length === 0 ? (
        <Text mt="lg" c="dimmed">
          {t('keys.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640} mt="lg">
          <Table verticalSpacing="sm" data-testid="api-keys-table">
            <TableHead
              titles={[t('keys.name'), t('keys.key'), t('keys.scopes'), t('keys.lastUsed'), t('keys.uses')]}
              last={<VisuallyHidden>{t('actions')}</VisuallyHidden>}
            />
            <Table.Tbody>
              {keys.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>
                    <bdi>{k.name}</bdi>
                  </Table.Td>
                  <Table.Td>
                    <Code dir="ltr">{k.prefix}…</Code>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {k.scopes.map((s) => (
                        <Badge key={s} variant="light" size="sm">
                          {t(scopeLabel(s))}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>{k.lastUsedAt ? formatDate(k.lastUsedAt, lang) : t('keys.never')}</Table.Td>
                  <Table.Td>{formatNumber(k.useCount, lang)}</Table.Td>
                  <Table.Td>
                    {k.revokedAt ? (
                      <Badge color="gray">{t('keys.revokedBadge')}</Badge>
                    ) : (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="masarRed"
                        leftSection={<IconTrash size={14} />}
                        onClick={() => setRevoking(k)}
                        aria-label={t('keys.revokeNamed', { name: k.name })}
                      >
                        {t('keys.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={!!revoking} onClose={() => setRevoking(null)} title={t('keys.revokeTitle')} centered>
        <Text mb="md">{t('keys.revokeConfirm', { name: revoking?.name ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setRevoking(null)}>
            {t('cancel')}
          </Button>
          <Button color="masarRed" onClick={() => void revoke()}>
            {t('keys.revoke')}
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}

function DeliveryLog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const resendOne = useMutation({ mutationFn: (id: string) => unwrap(masar.POST('/api/v1/webhook-deliveries/{id}/resend', { params: { path: { id } } })) });
  const { t, i18n } = useTranslation('integrations');
  const lang = asLang(i18n.language);
  const { data: items = [], refetch } = useQuery({
    queryKey: [...HOOKS, endpoint.id, 'deliveries'],
    queryFn: () => unwrap(masar.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: endpoint.id }, query: { limit: 50 } } })).then((d) => d.items),
  });
  const resend = (d: WebhookDelivery) => attempt(() => resendOne.mutateAsync(d.id), t('hooks.resent'), refetch);
  const color = { pending: 'yellow', succeeded: 'masar', failed: 'masarRed' } as const;
  return (
    <Modal opened onClose={onClose} title={t('hooks.logTitle')} size="xl">
      <Text fz="sm" c="dimmed" mb="sm" dir="ltr">
        {endpoint.url}
      </Text>
      {items.length === 0 ? (
        <Text c="dimmed">{t('hooks.logEmpty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" data-testid="deliveries-table">
            <TableHead
              titles={[t('hooks.event'), t('hooks.status'), t('hooks.attempts'), t('hooks.lastAnswer'), t('hooks.created')]}
              last={<VisuallyHidden>{t('actions')}</VisuallyHidden>}
            />
            <Table.Tbody>
              {items.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{t(eventLabel(d.eventType))}</Table.Td>
                  <Table.Td>
                    <Badge color={color[d.status]} variant="light">
                      {t(`hooks.st_${d.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatNumber(d.attempts, lang)}</Table.Td>
                  <Table.Td>
                    <Text fz="sm" dir="ltr">
                      {d.lastStatusCode ?? d.lastError ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDate(d.createdAt, lang)}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" leftSection={<IconRefresh size={14} />} onClick={() => void resend(d)}>
                      {t('hooks.resend')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}

function WebhooksCard() {
  const { t } = useTranslation('integrations');
  const qc = useQueryClient();
  const { data: hooks = [] } = useQuery({ queryKey: HOOKS, queryFn: () => unwrap(masar.GET('/api/v1/webhooks')).then((d) => d.items) });
  const [created, setCreated] = useState<(WebhookEndpoint & { secret: string }) | null>(null);
  const [log, setLog] = useState<WebhookEndpoint | null>(null);
  const patchHook = useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      unwrap(masar.PATCH('/api/v1/webhooks/{id}', { params: { path: { id } }, body: { active } })),
  });
  const deleteHook = useMutation({ mutationFn: (id: string) => unwrap(masar.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } })) });
  const form = useForm({
    mode: 'controlled',
    initialValues: { url: '', description: '', events: ['offer.created', 'offer.accepted', 'load.booked'] as string[] },
    validate: zodValidate(webhookCreateBody),
  });
  const createHook = useMutation({
    mutationFn: (body: BodyOf<'/api/v1/webhooks', 'post'>) => unwrap(masar.POST('/api/v1/webhooks', { body })),
    // awaited by the mutation: the form's button stays busy until the endpoint list is fresh
    onSuccess: async (hook) => {
      setCreated(hook);
      form.reset();
      await qc.invalidateQueries({ queryKey: HOOKS });
    },
  });
  const create = form.onSubmit(async (values) => {
    try {
      await createHook.mutateAsync(webhookCreateBody.parse({ ...values, description: values.description || undefined }));
    } catch (e) {
      showApiError(e, form);
    }
  });
  const refresh = () => qc.invalidateQueries({ queryKey: HOOKS });
  const setActive = (h: WebhookEndpoint, active: boolean) => attempt(() => patchHook.mutateAsync({ id: h.id, active }), undefined, refresh);
  const remove = (h: WebhookEndpoint) => attempt(() => deleteHook.mutateAsync(h.id), t('hooks.deleted'), refresh);

  return (
    <Card withBorder radius="lg" padding="lg">
      <CardHead icon={IconWebhook} title={t('hooks.title')} intro={t('hooks.intro')} />
      {created && <SecretOnce label={t('hooks.createdTitle')} value={created.secret} note={t('hooks.createdNote')} />}
      <CreateForm
        onSubmit={create}
        label={t('hooks.events')}
        inputProps={form.getInputProps('events')}
        options={WEBHOOK_EVENT_TYPES}
        optionLabel={(e) => t(eventLabel(e))}
        busy={createHook.isPending}
        submit={t('hooks.create')}
      >
        <TextInput label={t('hooks.url')} placeholder="https://tms.example.sa/masar" withAsterisk dir="ltr" {...form.getInputProps('url')} />
        <TextInput label={t('hooks.description')} {...form.getInputProps('description')} />
      </CreateForm>
      {hooks.length === 0 ? (
        <Text mt="lg" c="dimmed">
          {t('hooks.empty')}
        </Text>
      ) : (
        <Stack mt="lg" gap="sm" data-testid="webhooks-list">
          {hooks.map((h) => (
            <Card key={h.id} withBorder radius="md" padding="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} dir="ltr" style={{ overflowWrap: 'anywhere' }}>
                    {h.url}
                  </Text>
                  {h.description && (
                    <Text fz="sm" c="dimmed">
                      <bdi>{h.description}</bdi>
                    </Text>
                  )}
                  <Group gap={4}>
                    {h.events.map((e) => (
                      <Badge key={e} size="sm" variant="light">
                        {t(eventLabel(e))}
                      </Badge>
                    ))}
                  </Group>
                </Stack>
                <Group gap="xs">
                  <Switch
                    checked={h.active}
                    onChange={(ev) => void setActive(h, ev.currentTarget.checked)}
                    label={h.active ? t('hooks.active') : t('hooks.paused')}
                  />
                  <Button size="xs" variant="light" onClick={() => setLog(h)} aria-label={t('hooks.logFor', { url: h.url })}>
                    {t('hooks.log')}
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="masarRed"
                    leftSection={<IconTrash size={14} />}
                    onClick={() => void remove(h)}
                    aria-label={t('hooks.deleteFor', { url: h.url })}
                  >
                    {t('hooks.delete')}
                  </Button>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {log && <DeliveryLog endpoint={log} onClose={() => setLog(null)} />}
    </Card>
  );
}

/** API keys and webhooks of the account (issue 11; docs/api.md). */
export default function IntegrationsPage() {
  const { t } = useTranslation('integrations');
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('title')}</Title>
          <Text c="dimmed">{t('intro')}</Text>
        </div>
        <ApiKeysCard />
        <WebhooksCard />
      </Stack>
    </Container>
  );
}
