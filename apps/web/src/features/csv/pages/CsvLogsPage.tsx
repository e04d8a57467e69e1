import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Card, Container, Group, Loader, Pagination, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconRefresh } from '@tabler/icons-react';
import { CSV_COLUMNS, localizeValidationMessage, type CsvImportType } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CsvExportMenu, CsvImportButton } from '../../../components/CsvTransfer';
import { useCsvLog, useCsvLogs, useRetryRows, type CsvFailedRow, type CsvLog } from '../api/csv';
import { asLang, formatDate } from '../../../components/format';
import { TableHead } from '../../../components/TableHead';
import { Loading } from '../../../components/Loading';

const STATUS_COLOR: Record<string, string> = { processing: 'blue', completed: 'masar', failed: 'masarRed' };

function StatusBadge({ log }: { log: Pick<CsvLog, 'status'> }) {
  const { t } = useTranslation('csv');
  return (
    <Badge
      color={STATUS_COLOR[log.status] ?? 'gray'}
      variant="light"
      leftSection={log.status === 'processing' ? <Loader size={10} /> : undefined}
      data-testid="csv-log-status"
    >
      {t(`status.${log.status}`, { defaultValue: log.status })}
    </Badge>
  );
}

/** /{role}/csv-logs: CSV upload logs (auto-refresh while processing) and the fix flow of a log. */
export default function CsvLogsPage() {
  const { t, i18n } = useTranslation('csv');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const logId = params.get('log');
  const logs = useCsvLogs(page);
  const pages = Math.max(1, Math.ceil((logs.data?.total ?? 0) / 20));

  const setParam = (k: string, v: string | null) =>
    setParams((p) => {
      if (v) p.set(k, v);
      else p.delete(k);
      return p;
    });

  if (logId) return <CsvLogDetailView id={logId} onBack={() => setParam('log', null)} />;

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={2}>{t('logs.title')}</Title>
        <Group gap="xs">
          <Button variant="subtle" leftSection={<IconRefresh size={16} />} onClick={() => void logs.refetch()}>
            {t('logs.refresh')}
          </Button>
          <CsvImportButton types={['vendors', 'drivers', 'vehicles', 'trailers', 'shipments']} />
          <CsvExportMenu types={['vendors', 'drivers', 'vehicles', 'trailers', 'loads']} />
        </Group>
      </Group>
      {logs.isLoading ? (
        <Loading />
      ) : logs.isError ? (
        <Alert color="masarRed">{logs.error.message}</Alert>
      ) : !logs.data?.items.length ? (
        <Stack align="center" py="xl" gap="xs" data-testid="csv-logs-empty">
          <Text c="dimmed">{t('logs.empty')}</Text>
          <CsvImportButton types={['vendors', 'drivers', 'vehicles', 'trailers', 'shipments']} />
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover data-testid="csv-logs-table">
            <TableHead
              titles={[t('logs.type'), t('logs.file'), t('logs.uploadedAt'), t('logs.processing'), t('logs.succeeded'), t('logs.failed'), t('logs.status')]}
              last={null}
            />
            <Table.Tbody>
              {logs.data.items.map((l) => (
                <Table.Tr key={l.id} data-testid={`csv-log-${l.id}`}>
                  <Table.Td>{t(`type.${l.type}`, { defaultValue: l.type })}</Table.Td>
                  <Table.Td>{l.fileName ?? ''}</Table.Td>
                  <Table.Td>{formatDate(l.createdAt, asLang(i18n.language))}</Table.Td>
                  <Table.Td>{l.processing}</Table.Td>
                  <Table.Td c="masar">{l.succeeded}</Table.Td>
                  <Table.Td c={l.failed ? 'masarRed' : undefined}>{l.failed}</Table.Td>
                  <Table.Td>
                    <StatusBadge log={l} />
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" onClick={() => setParam('log', l.id)} data-testid="csv-log-open">
                      {l.failed ? t('logs.fix') : t('logs.view')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={(p) => setParam('page', String(p))} />}
    </Container>
  );
}

const ROWS_PER_PAGE = 10;

/** Columns of a failed row: the template's columns of its type (in order), then any others. */
function columnsOf(type: string, row: CsvFailedRow) {
  const template = CSV_COLUMNS[type as CsvImportType] ?? [];
  const keys = template.map((c) => c.key).filter((k) => k in row.data);
  for (const k of Object.keys(row.data)) if (!keys.includes(k)) keys.push(k);
  return keys.map((k) => template.find((c) => c.key === k) ?? { key: k, en: k, ar: k, required: false });
}

/** Errors of a row keyed by column (an error path is the field key, or a path under it such as plate.digits). */
function errorsByColumn(row: CsvFailedRow, cols: string[], lang: string) {
  const byCol: Record<string, string[]> = {};
  const general: string[] = [];
  for (const e of row.errors) {
    const msg = localizeValidationMessage(e.message, lang);
    const head = e.path.split('.')[0];
    const col = cols.find((c) => c === e.path) ?? cols.find((c) => c === head);
    if (col) (byCol[col] ??= []).push(msg);
    else general.push(msg);
  }
  return { byCol, general };
}

function CsvLogDetailView({ id, onBack }: { id: string; onBack: () => void }) {
  const { t, i18n } = useTranslation('csv');
  const log = useCsvLog(id);
  const retry = useRetryRows(id);
  const [edits, setEdits] = useState<Record<string, Record<string, string>>>({});
  const [page, setPage] = useState(1);
  const rows = useMemo(() => (log.data?.rows ?? []).filter((r) => r.status !== 'succeeded'), [log.data]);
  const pages = Math.max(1, Math.ceil(rows.length / ROWS_PER_PAGE));
  const visible = rows.slice((Math.min(page, pages) - 1) * ROWS_PER_PAGE, Math.min(page, pages) * ROWS_PER_PAGE);
  const edited = rows.filter((r) => edits[r.id]);

  const setCell = (row: CsvFailedRow, col: string, v: string) => setEdits((e) => ({ ...e, [row.id]: { ...row.data, ...e[row.id], [col]: v } }));

  const resubmit = async (which: CsvFailedRow[]) => {
    if (!which.length) return;
    try {
      const res = await retry.mutateAsync(which.map((r) => ({ rowId: r.id, data: edits[r.id] ?? r.data })));
      setEdits((e) => {
        const next = { ...e };
        for (const r of which) delete next[r.id];
        return next;
      });
      notifications.show({
        color: res.failed ? 'yellow' : 'masar',
        message: t('fix.result', { succeeded: res.succeeded, failed: res.failed }),
      });
    } catch (e) {
      notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') });
    }
  };

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Group gap="xs">
          <Button variant="subtle" leftSection={<IconArrowBackUp size={16} />} onClick={onBack} data-testid="csv-log-back">
            {t('fix.back')}
          </Button>
          <Title order={2}>{t('fix.title')}</Title>
        </Group>
      </Group>
      {log.isLoading ? (
        <Loading />
      ) : log.isError ? (
        <Alert color="masarRed">{log.error.message}</Alert>
      ) : log.data ? (
        <Stack>
          <Card withBorder>
            <Group gap="xl" wrap="wrap">
              <Text>
                {t('logs.type')}: <b>{t(`type.${log.data.type}`, { defaultValue: log.data.type })}</b>
              </Text>
              <Text>
                {t('logs.uploadedAt')}: {formatDate(log.data.createdAt, asLang(i18n.language))}
              </Text>
              <Text>
                {t('logs.processing')}: <b data-testid="csv-detail-processing">{log.data.processing}</b>
              </Text>
              <Text c="masar">
                {t('logs.succeeded')}: <b data-testid="csv-detail-succeeded">{log.data.succeeded}</b>
              </Text>
              <Text c="masarRed">
                {t('logs.failed')}: <b data-testid="csv-detail-failed">{log.data.failed}</b>
              </Text>
              <StatusBadge log={log.data} />
            </Group>
          </Card>
          {log.data.status === 'failed' && log.data.error && (
            <Alert color="red" data-testid="csv-file-error">
              {log.data.error}
            </Alert>
          )}
          {rows.length === 0 ? (
            <Alert color="masar" data-testid="csv-no-failed-rows">
              {log.data.processing ? t('fix.processing') : t('fix.none')}
            </Alert>
          ) : (
            <>
              <Group justify="space-between" wrap="wrap">
                <Text>{t('fix.intro', { count: rows.length })}</Text>
                <Group gap="xs">
                  <Button variant="default" onClick={() => void resubmit(visible)} loading={retry.isPending} data-testid="csv-resubmit-page">
                    {t('fix.resubmitPage')}
                  </Button>
                  <Button onClick={() => void resubmit(edited)} disabled={!edited.length} loading={retry.isPending} data-testid="csv-resubmit">
                    {t('fix.resubmit', { count: edited.length })}
                  </Button>
                </Group>
              </Group>
              {visible.map((row) => {
                const cols = columnsOf(log.data.type, row);
                const { byCol, general } = errorsByColumn(
                  row,
                  cols.map((c) => c.key),
                  i18n.language,
                );
                const data = edits[row.id] ?? row.data;
                return (
                  <Card key={row.id} withBorder data-testid={`csv-failed-row-${row.rowNumber}`}>
                    <Group justify="space-between" mb="xs">
                      <Text fw={700}>{t('fix.row', { n: row.rowNumber })}</Text>
                      {edits[row.id] && (
                        <Badge variant="light" color="yellow">
                          {t('fix.edited')}
                        </Badge>
                      )}
                    </Group>
                    {general.map((g) => (
                      <Text key={g} c="masarRed" size="sm">
                        {g}
                      </Text>
                    ))}
                    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs">
                      {cols.map((col) => (
                        <TextInput
                          key={col.key}
                          label={i18n.language === 'ar' ? col.ar : col.en}
                          required={col.required}
                          size="xs"
                          value={data[col.key] ?? ''}
                          error={byCol[col.key]?.join(' ')}
                          onChange={(e) => setCell(row, col.key, e.currentTarget.value)}
                          data-testid={`fix-row-${row.rowNumber}-${col.key}`}
                        />
                      ))}
                    </SimpleGrid>
                  </Card>
                );
              })}
              {pages > 1 && <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} />}
            </>
          )}
        </Stack>
      ) : null}
    </Container>
  );
}
